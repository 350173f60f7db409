"""Users, logins and JWT tokens.

Access and refresh tokens are HS256 JWTs signed with a secret drawn at server
start, so restarting the server invalidates every token. The user record is
re-read on every request, so deactivating an account takes effect at once.
"""

from __future__ import annotations

import json
import math
import secrets
import sqlite3
import time
from typing import TYPE_CHECKING, Any

import jwt

from embedded.ontul.demo_org.passwords import verify_password
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
        if row is None:
            return None
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

        Raises:
            ApiError: 401 on bad credentials or a disabled account.
        """
        row = self._row(user_id)
        if row is None or not verify_password(
            row["password_salt"] or "", row["password_hash"] or "", password
        ):
            raise ApiError(401, "invalid username or password")
        user = self.get(user_id)
        if user is None or not user.active:
            raise ApiError(401, "account disabled")
        return user


class TokenService:
    """Issues and verifies access and refresh tokens."""

    def __init__(self, access_ttl_s: float = 900, refresh_ttl_s: float = 8 * 3600) -> None:
        """Create the service with a fresh random secret.

        Args:
            access_ttl_s: Access-token lifetime in seconds (may be 1 for tests).
            refresh_ttl_s: Refresh-token lifetime in seconds.
        """
        self.access_ttl_s = access_ttl_s
        self.refresh_ttl_s = max(refresh_ttl_s, access_ttl_s)
        self._secret = secrets.token_bytes(32)

    def issue(self, user_id: str, kind: str) -> str:
        """Return a signed token of ``kind`` (access or refresh) for ``user_id``."""
        now = time.time()
        ttl = self.access_ttl_s if kind == ACCESS else self.refresh_ttl_s
        claims = {
            "sub": user_id,
            "typ": kind,
            "iat": int(now),
            "exp": math.ceil(now + ttl),
            "jti": secrets.token_hex(8),
        }
        return jwt.encode(claims, self._secret, algorithm="HS256")

    def verify(self, token: str, kind: str) -> str:
        """Return the user id in a valid token of ``kind``.

        Raises:
            ApiError: 401 when the token is expired, forged or of the wrong kind.
        """
        try:
            claims = jwt.decode(
                token, self._secret, algorithms=["HS256"], options={"require": ["exp", "sub"]}
            )
        except jwt.ExpiredSignatureError:
            raise ApiError(401, "token expired") from None
        except jwt.InvalidTokenError:
            raise ApiError(401, "invalid token") from None
        if claims.get("typ") != kind:
            raise ApiError(401, f"not an {kind} token" if kind == ACCESS else "not a refresh token")
        return str(claims["sub"])
