"""axe-core, the accessibility checker, run in a page of the browser tests: what
it finds of serious or critical impact, one line a rule (vendored from npm,
pinned: tests/local/axe/vendor.sh)."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Frame

AXE = (Path(__file__).with_name("vendor") / "axe.min.js").read_text(encoding="utf-8")
SERIOUS = ("serious", "critical")

REPORT = """async (impacts) => {
  const found = await axe.run(document, { resultTypes: ["violations"] });
  return found.violations
    .filter((rule) => impacts.includes(rule.impact))
    .map((rule) => `${rule.id} (${rule.impact}): ${rule.help}; at `
      + rule.nodes.slice(0, 3).map((node) => node.target.join(" ")).join(", "));
}"""


async def serious_violations(frame: Frame) -> list[str]:
    """axe's serious and critical findings in ``frame`` (its page's CSP must let a
    test add a script: open it in a context with ``bypass_csp``)."""
    if not await frame.evaluate("() => typeof axe !== 'undefined'"):
        await frame.add_script_tag(content=AXE)
    found: list[str] = await frame.evaluate(REPORT, list(SERIOUS))
    return found
