"""Users, logins and JWT tokens.

Access and refresh tokens are HS256 JWTs signed with a secret drawn at server
start, so restarting the server invalidates every token. The user record is
re-read on every request, so deactivating an account takes effect at once.

Logins say nothing about which usernames exist: every failure (unknown user,
wrong password, disabled account) answers the same 401 message after the same
work (one PBKDF2 verification, against a dummy hash for an unknown user), and
repeated failures for one username are answered 429 for a growing pause
(:class:`LoginThrottle`), whether or not the user exists.

Refresh tokens rotate: each refresh answers a new refresh token and spends the
old one. A refresh token used a second time means it was copied, so its whole
family (every token descending from the same login) is revoked and the next
refresh with any of them is refused; the holder must log in again.
"""

from __future__ import annotations

import json
import math
import secrets
import sqlite3
import threading
import time
from typing import TYPE_CHECKING, Any

import jwt

from embedded.ontul.demo_org.passwords import hash_password, verify_password
from embedded.ontul.errors import ApiError
from embedded.ontul.guarded_sqlite import open_read_only
from embedded.ontul.policy import UserRecord

if TYPE_CHECKING:
    from pathlib import Path

ACCESS = "access"
REFRESH = "refresh"


def _parse_json(raw: str | None, default: Any) -> Any:
    try:
        value = json.loads(raw) if raw else default
    except json.JSONDecodeError:
        return default
    return value if isinstance(value, type(default)) else default


class UserStore:
    """Reads users from the platform database (never caches them)."""

    def __init__(self, db_path: Path) -> None:
        """Create the store.

        Args:
            db_path: The platform database.
        """
        self.db_path = db_path

    def _row(self, user_id: str) -> sqlite3.Row | None:
        conn = open_read_only(self.db_path)
        conn.row_factory = sqlite3.Row
        try:
            row: sqlite3.Row | None = conn.execute(
                "SELECT * FROM users WHERE user_id = ?", (user_id,)
            ).fetchone()
            return row
        finally:
            conn.close()

    def get(self, user_id: str) -> UserRecord | None:
        """Return the stored user, or None when there is no such user."""
        row = self._row(user_id)
        return None if row is None else self._record(row)

    @staticmethod
    def _record(row: sqlite3.Row) -> UserRecord:
        return UserRecord(
            user_id=row["user_id"],
            display_name=row["display_name"] or row["user_id"],
            is_admin=bool(row["is_admin"]),
            active=bool(row["active"]),
            groups=tuple(str(g) for g in _parse_json(row["groups"], [])),
            attrs=_parse_json(row["attrs"], {}),
        )

    def check_password(self, user_id: str, password: str) -> UserRecord:
        """Return the user when ``password`` is right and the account active.

        Every failure costs one password verification and raises the same error.

        Raises:
            ApiError: 401 ``invalid username or password``.
        """
        row = self._row(user_id)
        if row is None:
            verify_password(_DUMMY_SALT, _DUMMY_HASH, password)  # same work, same answer
            raise ApiError(401, LOGIN_FAILED)
        ok = verify_password(row["password_salt"] or "", row["password_hash"] or "", password)
        user = self._record(row)
        if not ok or not user.active:
            raise ApiError(401, LOGIN_FAILED)
        return user


LOGIN_FAILED = "invalid username or password"
"""The one message of every failed login."""
_DUMMY_SALT = "00" * 16
_DUMMY_HASH = hash_password("not a password of anyone", bytes.fromhex(_DUMMY_SALT))


class LoginThrottle:
    """Exponential pause after repeated failed logins of one username.

    After ``threshold`` consecutive failures, a username is refused (429) for
    ``base_s * 2**(failures - threshold)`` seconds, at most ``max_s``; a
    successful login clears it. Keyed by the name as typed, so it behaves the
    same for users that do not exist. ``threshold=0`` turns it off.
    """

    def __init__(
        self, threshold: int = 10, base_s: float = 0.5, max_s: float = 60.0, max_names: int = 10_000
    ) -> None:
        """Create the throttle.

        Args:
            threshold: Failures allowed before pausing (0: never pause).
            base_s: First pause, doubled per further failure.
            max_s: Longest pause.
            max_names: Usernames remembered (oldest forgotten first).
        """
        self.threshold = threshold
        self.base_s = base_s
        self.max_s = max_s
        self._max_names = max_names
        self._failures: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_env(cls, value: str | None) -> LoginThrottle:
        """Parse ``ONTUL_LOGIN_BACKOFF``: ``off`` or ``threshold,base_s,max_s``."""
        if value is None or not value.strip():
            return cls()
        if value.strip().lower() in ("off", "0", "none"):
            return cls(threshold=0)
        parts = [p.strip() for p in value.split(",")]
        try:
            threshold = int(parts[0])
            base_s = float(parts[1]) if len(parts) > 1 else 0.5
            max_s = float(parts[2]) if len(parts) > 2 else 60.0
        except ValueError:
            raise ValueError(
                f"ONTUL_LOGIN_BACKOFF must be 'off' or 'threshold,base_s,max_s', not {value!r}"
            ) from None
        return cls(threshold, base_s, max_s)

    def check(self, name: str) -> None:
        """Refuse (429) while ``name`` is paused.

        Raises:
            ApiError: 429 with the seconds left.
        """
        if self.threshold <= 0:
            return
        with self._lock:
            failures, until = self._failures.get(name, (0, 0.0))
        left = until - time.monotonic()
        if failures >= self.threshold and left > 0:
            raise ApiError(429, f"too many failed logins; try again in {math.ceil(left)} s")

    def failed(self, name: str) -> None:
        """Count a failure of ``name`` and start its pause past the threshold."""
        if self.threshold <= 0:
            return
        with self._lock:
            failures = self._failures.pop(name, (0, 0.0))[0] + 1
            pause = 0.0
            if failures >= self.threshold:
                pause = min(self.base_s * 2 ** (failures - self.threshold), self.max_s)
            self._failures[name] = (failures, time.monotonic() + pause)
            while len(self._failures) > self._max_names:
                self._failures.pop(next(iter(self._failures)))

    def succeeded(self, name: str) -> None:
        """Forget the failures of ``name``."""
        with self._lock:
            self._failures.pop(name, None)


class TokenService:
    """Issues and verifies access and refresh tokens; rotates refresh tokens."""

    def __init__(self, access_ttl_s: float = 900, refresh_ttl_s: float = 8 * 3600) -> None:
        """Create the service with a fresh random secret.

        Args:
            access_ttl_s: Access-token lifetime in seconds (may be 1 for tests).
            refresh_ttl_s: Refresh-token lifetime in seconds.
        """
        self.access_ttl_s = access_ttl_s
        self.refresh_ttl_s = max(refresh_ttl_s, access_ttl_s)
        self._secret = secrets.token_bytes(32)
        self._lock = threading.Lock()
        self._spent: dict[str, float] = {}  # refresh jti -> its expiry
        self._revoked: dict[str, float] = {}  # family -> latest expiry of its tokens

    def issue(self, user_id: str, kind: str, family: str | None = None) -> str:
        """Return a signed token of ``kind`` (access or refresh) for ``user_id``.

        Args:
            user_id: The subject.
            kind: :data:`ACCESS` or :data:`REFRESH`.
            family: Refresh family (a new one per login when None).
        """
        now = time.time()
        ttl = self.access_ttl_s if kind == ACCESS else self.refresh_ttl_s
        claims = {
            "sub": user_id,
            "typ": kind,
            "iat": int(now),
            "exp": math.ceil(now + ttl),
            "jti": secrets.token_hex(8),
            "fam": family or secrets.token_hex(8),
        }
        return jwt.encode(claims, self._secret, algorithm="HS256")

    def _claims(self, token: str, kind: str) -> dict[str, Any]:
        try:
            claims: dict[str, Any] = jwt.decode(
                token, self._secret, algorithms=["HS256"], options={"require": ["exp", "sub"]}
            )
        except jwt.ExpiredSignatureError:
            raise ApiError(401, "token expired") from None
        except jwt.InvalidTokenError:
            raise ApiError(401, "invalid token") from None
        if claims.get("typ") != kind:
            raise ApiError(401, f"not an {kind} token" if kind == ACCESS else "not a refresh token")
        return claims

    def verify(self, token: str, kind: str) -> str:
        """Return the user id in a valid token of ``kind``.

        Raises:
            ApiError: 401 when the token is expired, forged or of the wrong kind.
        """
        return str(self._claims(token, kind)["sub"])

    def rotate(self, refresh_token: str) -> tuple[str, str]:
        """Spend ``refresh_token``: return (user id, its successor in the same family).

        Raises:
            ApiError: 401 when the token is invalid, its family revoked, or it
                was spent before (which revokes the family).
        """
        claims = self._claims(refresh_token, REFRESH)
        jti, family = str(claims.get("jti", "")), str(claims.get("fam", ""))
        exp = float(claims["exp"])
        with self._lock:
            self._forget_expired()
            if family in self._revoked:
                raise ApiError(401, "refresh token revoked; log in again")
            if jti in self._spent:
                self._revoked[family] = time.time() + self.refresh_ttl_s
                raise ApiError(401, "refresh token already used; its session is revoked")
            self._spent[jti] = exp
        user_id = str(claims["sub"])
        return user_id, self.issue(user_id, REFRESH, family)

    def _forget_expired(self) -> None:
        now = time.time()
        if len(self._spent) > 1000:
            self._spent = {j: e for j, e in self._spent.items() if e > now}
        if len(self._revoked) > 1000:
            self._revoked = {f: e for f, e in self._revoked.items() if e > now}
