#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Open the web page in headless Chromium and print what it reports.

Talks to Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages
ended by a NUL byte, commands on the browser's fd 3, answers and events on its fd 4), so nothing
beyond Python's standard library and Chromium is needed, and the page runs in real time: its own
redraw timings mean something (a --virtual-time-budget run freezes the page's clock).

Waits until the JSON the page keeps in <pre id="result"> says "ready", then prints that JSON on
one line with "console_errors" added: console.error calls, uncaught exceptions and browser log
entries of level error (failed loads among them). Optionally saves a screenshot. Exits 1 when the
page does not get ready within --timeout seconds.
"""
import argparse
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, chromium, width, height, log):
        self.profile = tempfile.mkdtemp(prefix="arcnav-chromium-")
        # The browser's ends are moved to descriptors from 10 on, so that putting them on 3 and 4
        # cannot overwrite one another.
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()
        to_browser_read = self._move_up(to_browser_read)
        from_browser_write = self._move_up(from_browser_write)
        args = [
            "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
            "--user-data-dir=" + self.profile, f"--window-size={width},{height}",
            "--hide-scrollbars", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--mute-audio",
            "about:blank",
        ]
        # The shell puts the pipe ends on the descriptors Chromium expects (bash: dash's
        # redirections take single-digit descriptors only).
        script = (f'exec "$0" "$@" 3<&{to_browser_read} 4>&{from_browser_write} '
                  f'{to_browser_read}<&- {from_browser_write}>&-')
        self.process = subprocess.Popen(
            ["bash", "-c", script, chromium] + args,
            pass_fds=(to_browser_read, from_browser_write),
            stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    @staticmethod
    def _move_up(fd):
        moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(fd)
        return moved

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:  # the browser may be gone already
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from Chromium")
            ready, _, _ = select.select([self.from_browser], [], [], left)
            if ready:
                chunk = os.read(self.from_browser, 1 << 20)
                if not chunk:
                    raise EOFError("Chromium closed its DevTools pipe")
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=None, timeout=10):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            if "method" in answer:
                self.events.append(answer)


def console_errors(events):
    errors = []
    for event in events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            args = params.get("args", [])
            errors.append("console." + params["type"] + ": " + " ".join(
                str(a.get("value", a.get("description", ""))) for a in args))
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            exception = details.get("exception", {})
            errors.append("exception: " + exception.get("description", details.get("text", "")))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            errors.append(f"log ({entry.get('source')}): {entry.get('text')} {entry.get('url', '')}")
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--screenshot", help="PNG file to write once the page is ready")
    parser.add_argument("--size", default="1200x800", help="viewport WIDTHxHEIGHT")
    parser.add_argument("--timeout", type=float, default=60, help="seconds for the whole run")
    parser.add_argument("--log", default=os.devnull, help="file for Chromium's own output")
    options = parser.parse_args()
    width, height = (int(v) for v in options.size.split("x"))
    deadline = time.monotonic() + options.timeout

    with open(options.log, "w") as log:
        browser = Browser(options.chromium, width, height, log)
        try:
            target = browser.send("Target.createTarget", {"url": "about:blank"}, timeout=30)
            session = browser.send("Target.attachToTarget",
                                   {"targetId": target["targetId"], "flatten": True})["sessionId"]
            for domain in ("Runtime", "Log", "Page"):
                browser.send(domain + ".enable", session=session)
            browser.send("Emulation.setDeviceMetricsOverride",
                         {"width": width, "height": height, "deviceScaleFactor": 1,
                          "mobile": False}, session=session)
            browser.send("Page.navigate", {"url": options.url}, session=session)
            result = None
            while time.monotonic() < deadline:
                value = browser.send("Runtime.evaluate", {
                    "expression": "(document.getElementById('result') || {}).textContent || ''",
                    "returnByValue": True}, session=session)["result"].get("value", "")
                if value:
                    result = json.loads(value)
                    if result.get("ready"):
                        break
                time.sleep(0.1)
            else:
                print(f"drive_chromium: the page was not ready within {options.timeout} s: "
                      f"{json.dumps(result)}", file=sys.stderr)
                print(json.dumps({"console_errors": console_errors(browser.events)}),
                      file=sys.stderr)
                return 1
            if options.screenshot:
                shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=session,
                                    timeout=30)
                with open(options.screenshot, "wb") as out:
                    out.write(base64.b64decode(shot["data"]))
            # Events that arrived while the screenshot was taken are collected by one more call.
            browser.send("Runtime.evaluate", {"expression": "0"}, session=session)
            result["console_errors"] = console_errors(browser.events)
            print(json.dumps(result))
            return 0
        finally:
            browser.close()


if __name__ == "__main__":
    sys.exit(main())
