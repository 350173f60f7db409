"""What the model is sent besides the conversation: the system prompt and the tools.

The static part (the prompt resource and the tool definitions) is a cached
prefix; the date and identity lines follow it, so they never break the cache.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_core.errors import InstallationError

if TYPE_CHECKING:
    from agent_core.platform_client import PlatformClient
    from agent_core.session import PersonaSession

SYSTEM_PROMPT_PATH = Path(__file__).resolve().parent.parent / "resources" / "prompts" / "system.md"
"""The system prompt resource."""

CACHE = {"type": "ephemeral"}
"""The ``cache_control`` of a prompt-cache breakpoint (5-minute TTL)."""


def load_system_prompt(path: Path = SYSTEM_PROMPT_PATH) -> str:
    """Read the system prompt resource.

    A missing prompt is a broken install: the agent would run without its
    grounding and access rules, so it fails loudly instead of improvising one.

    Returns:
        The prompt text.

    Raises:
        InstallationError: The resource is missing or unreadable.
    """
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InstallationError(
            f"the system prompt {path} is missing or unreadable ({exc.strerror}); reinstall RegDesk"
        ) from exc


def history_messages(history: list[tuple[str, str]] | None) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for question, answer in history or []:
        messages.append({"role": "user", "content": question})
        messages.append({"role": "assistant", "content": answer or "(no answer)"})
    return messages


def today_line(client: PlatformClient) -> str:
    """The system prompt's date line: the platform's today when known.

    Args:
        client: The session's platform client.

    Returns:
        ``Today is YYYY-MM-DD.``, marked ``(local clock)`` until a platform
        response has told its date.
    """
    if client.today_known:
        return f"Today is {client.today().isoformat()}."
    return f"Today is {time.strftime('%Y-%m-%d')} (local clock)."


def identity_line(username: str, display_name: str) -> str:
    """The system prompt's identity line: whom the turn runs for.

    The identity is bound by the login, out of band; it is never a tool argument
    and never widens access.

    Args:
        username: The login name.
        display_name: The person's name as the platform reports it.

    Returns:
        One line naming the person asking.
    """
    # The name comes from the platform, not the person; still, keep it one short line.
    printable = "".join(ch for ch in (display_name or username) if ch.isprintable())
    name = " ".join(printable.split())[:64] or username
    return (
        f"The person asking is {name} (username {username}). Their access is enforced by the "
        'platform; "I/my" in the question means this person.'
    )


def system_text(session: PersonaSession) -> str:
    """The system prompt of a turn: the resource, today's date and who is asking.

    Args:
        session: The logged-in persona.

    Returns:
        The full system prompt text.
    """
    return (
        f"{session.system_prompt}\n\n{today_line(session.client)}\n"
        f"{identity_line(session.username, session.display_name)}"
    )


def system_blocks(session: PersonaSession, cache: bool = True) -> list[dict[str, Any]]:
    """The system prompt as two blocks: the static, cached prompt, then the turn's lines.

    The date and identity lines change between people and days, so they come
    after the cache breakpoint: the static prompt (and the tools before it)
    stay one cached prefix for everyone.

    Args:
        session: The logged-in persona.
        cache: Put a ``cache_control`` breakpoint on the static block.

    Returns:
        The ``system`` parameter.
    """
    static: dict[str, Any] = {"type": "text", "text": session.system_prompt}
    if cache:
        static["cache_control"] = CACHE
    identity = identity_line(session.username, session.display_name)
    dynamic = f"{today_line(session.client)}\n{identity}"
    return [static, {"type": "text", "text": dynamic}]


def tool_definitions(session: PersonaSession, cache: bool = True) -> list[dict[str, Any]]:
    """The tool definitions, the last one carrying the tools' cache breakpoint."""
    tools = [t.to_anthropic() for t in session.tools.values()]
    if cache and tools:
        tools[-1] = {**tools[-1], "cache_control": CACHE}
    return tools


def with_moving_breakpoint(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages with a cache breakpoint on the last block of the last user message.

    The stored conversation is not changed: the breakpoint moves with each call.
    """
    if not messages or messages[-1]["role"] != "user":
        return messages
    last = messages[-1]
    content = last["content"]
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
    if not blocks or blocks[-1].get("type") not in ("text", "tool_result", "image", "document"):
        return messages
    blocks[-1] = {**blocks[-1], "cache_control": CACHE}
    return [*messages[:-1], {"role": "user", "content": blocks}]


def clean_content(blocks: list[Any]) -> list[dict[str, Any]]:
    """An assistant message's content as it goes back to the model.

    Thinking and redacted thinking blocks are kept exactly as received (their
    signatures bind them); text blocks with no visible text are dropped (the API
    rejects empty text blocks).

    Args:
        blocks: The SDK's content blocks of a message.

    Returns:
        Plain dicts.
    """
    out: list[dict[str, Any]] = []
    for block in blocks:
        data = block.model_dump(mode="json", exclude_none=True)
        data.pop("parsed_output", None)
        if data.get("type") == "text" and not str(data.get("text") or "").strip():
            continue
        out.append(data)
    return out
