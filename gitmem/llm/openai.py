"""The ``openai`` backend: any OpenAI-compatible chat completions endpoint.

One ``POST {base_url}/chat/completions`` per prompt (e.g. a local Ollama at
``http://127.0.0.1:11434/v1``): the caller's system prompt, then the prompt as the
user message, with temperature 0 and JSON mode. The HTTP answer is an interface
too: it must be a JSON object whose ``choices[0].message.content`` is a string.
:meth:`OpenAIBackend.complete` returns that content as UTF-8 bytes (what the capture
log keeps and the schema parser reads); when the answer is malformed, the whole HTTP
body travels on the error's ``raw`` instead.

The timeout holds twice over: every socket operation has it, and the request as a
whole runs in a worker thread that is abandoned when the deadline passes (so a
server that drips bytes cannot hold a capture). Redirects are not followed (they
could carry the key elsewhere), loopback hosts bypass proxies, and the API key
never appears in an error, a label or a repr.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import threading
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from gitmem import __version__
from gitmem.core.canonical import strict_decoder
from gitmem.llm.backend import MAX_OUTPUT_BYTES, BackendFailed, ReplyTruncated, Reported

_MAX_BODY_BYTES = 2 * MAX_OUTPUT_BYTES
"""JSON escaping can double the content; the envelope adds little."""

_MAX_SHOWN_CHARS = 200


class OpenAIBackend:
    """Asks one model at one OpenAI-compatible endpoint."""

    name = "openai"
    reported: Reported | None = None

    def __init__(self, base_url: str, model: str, api_key: str | None, timeout: float) -> None:
        parts = urlsplit(base_url)
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.timeout = timeout
        self._api_key = api_key
        self._where = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"
        self._loopback = _is_loopback(parts.hostname or "")
        self.label = f"openai: {model} at {self._where}"

    def __repr__(self) -> str:
        return f"OpenAIBackend({self.label!r})"

    def complete(self, prompt: str, *, system: str) -> bytes:
        """Ask the model (*system* as the system message, *prompt* as the user message)
        and return ``choices[0].message.content`` as UTF-8 bytes.

        Raises:
            BackendFailed: no connection, the timeout, an HTTP error status, or an
                answer that is not JSON or has no string content (``raw`` then holds
                the HTTP body).
            ReplyTruncated: ``choices[0].finish_reason`` is ``"length"`` (``raw`` holds
                the content).
        """
        request = urllib.request.Request(
            self.url,
            data=json.dumps(self._payload(prompt, system)).encode("ascii"),
            method="POST",
            headers=self._headers(),
        )
        outcome: list[bytes | BackendFailed] = []
        worker = threading.Thread(
            target=self._fetch, args=(request, outcome), name="gitmem-openai", daemon=True
        )
        worker.start()
        worker.join(self.timeout)
        if worker.is_alive() or not outcome:
            raise BackendFailed(f"{self._where} timed out after {self.timeout:g} s")
        result = outcome[0]
        if isinstance(result, BackendFailed):
            raise result
        return self._content(result)

    def _payload(self, prompt: str, system: str) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": prompt},
            ],
            "temperature": 0,
            "response_format": {"type": "json_object"},
            "stream": False,
        }

    def _headers(self) -> dict[str, str]:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": f"gitmem/{__version__}",
        }
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _fetch(self, request: urllib.request.Request, outcome: list[bytes | BackendFailed]) -> None:
        """Runs in the worker thread: every exception becomes a BackendFailed in *outcome*."""
        handlers: list[urllib.request.BaseHandler] = [_NoRedirects()]
        if self._loopback:
            handlers.append(urllib.request.ProxyHandler({}))
        opener = urllib.request.build_opener(*handlers)
        try:
            with opener.open(request, timeout=self.timeout) as response:
                outcome.append(response.read(_MAX_BODY_BYTES + 1))
        except urllib.error.HTTPError as e:
            outcome.append(self._http_error(e))
        except urllib.error.URLError as e:
            outcome.append(self._unreachable(e.reason))
        except TimeoutError:
            outcome.append(BackendFailed(f"{self._where} timed out after {self.timeout:g} s"))
        except http.client.HTTPException as e:
            outcome.append(BackendFailed(f"{self._where} broke the HTTP exchange ({_kind(e)})"))
        except OSError as e:
            outcome.append(self._unreachable(e))
        except Exception as e:
            outcome.append(BackendFailed(f"the request to {self._where} failed ({_kind(e)})"))

    def _http_error(self, error: urllib.error.HTTPError) -> BackendFailed:
        try:
            body = error.read(_MAX_BODY_BYTES)
        except (OSError, http.client.HTTPException):
            body = b""
        detail = f"{self._where} answered HTTP {error.code}"
        if 300 <= error.code < 400:
            detail += " (a redirect, which gitmem does not follow)"
        message = _error_message(body)
        if message:
            detail += f": {self._scrub(message)}"
        return BackendFailed(detail, body or None)

    def _unreachable(self, reason: object) -> BackendFailed:
        if isinstance(reason, TimeoutError):
            return BackendFailed(f"{self._where} timed out after {self.timeout:g} s")
        if isinstance(reason, ConnectionRefusedError):
            return BackendFailed(f"cannot connect to {self._where}: connection refused")
        if isinstance(reason, OSError):
            return BackendFailed(f"cannot reach {self._where}: {reason.strerror or _kind(reason)}")
        return BackendFailed(f"cannot reach {self._where}: {self._scrub(str(reason))}")

    def _content(self, body: bytes) -> bytes:
        if len(body) > _MAX_BODY_BYTES:
            raise BackendFailed(f"{self._where} answered with more than {_MAX_BODY_BYTES} bytes")
        try:
            envelope = strict_decoder().decode(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise BackendFailed(f"{self._where} did not answer with a JSON body", body) from None
        message = _path(envelope, "choices", 0, "message")
        content = _path(message, "content")
        if not isinstance(content, str):
            refusal = _path(message, "refusal")
            if isinstance(refusal, str) and refusal.strip():
                raise BackendFailed(f"the model refused: {self._scrub(refusal)}", body)
            raise BackendFailed(
                f"{self._where} answered without a string choices[0].message.content", body
            )
        try:
            data = content.encode("utf-8")
        except UnicodeEncodeError:
            raise BackendFailed("the model's answer holds a lone surrogate escape", body) from None
        if _path(envelope, "choices", 0, "finish_reason") == "length":
            # The model stopped at its token limit: whatever the content looks like, it
            # is not the whole reply.
            raise ReplyTruncated(
                'the model stopped at its length limit (finish_reason "length")', data
            )
        return data

    def _scrub(self, text: str) -> str:
        if self._api_key:
            text = text.replace(self._api_key, "[redacted:api-key]")
        return _shorten(text)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _is_loopback(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _path(value: Any, *steps: str | int) -> Any:
    """``value[steps[0]][steps[1]]…``, or None where the shape does not match."""
    for step in steps:
        if isinstance(step, int):
            if not (isinstance(value, list) and len(value) > step):
                return None
        elif not (isinstance(value, dict) and step in value):
            return None
        value = value[step]
    return value


def _error_message(body: bytes) -> str | None:
    """The message of an OpenAI-style error body ``{"error": {"message": ...}}``."""
    try:
        value = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    message = _path(value, "error", "message")
    if not isinstance(message, str):
        message = _path(value, "error")  # Ollama: {"error": "model not found"}
    if not isinstance(message, str) or not message.strip():
        return None
    return message


def _shorten(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= _MAX_SHOWN_CHARS else line[:_MAX_SHOWN_CHARS] + "…"


def _kind(error: BaseException) -> str:
    return type(error).__name__
