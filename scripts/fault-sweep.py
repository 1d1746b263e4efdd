#!/usr/bin/env python3
"""Runs the suites against a2a-ref-agent once per fault and prints what does
not pass, to review and update fixtures/fault-matrix*.yaml (the meta-tests
then prove it on every CI run).

  scripts/fault-sweep.py --mode stdio [--faults a,b] [suite paths...]
  scripts/fault-sweep.py --mode http  [--faults a,b] [--agent-arg=--serve-0.3] [suite paths...]

Output: one JSON object per fault on stdout:
  {"fault": NAME, "failing": [{"id": ..., "binding": ..., "outcome": ..., "reason": ...}]}
"""
import argparse, json, os, re, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def faults(agent):
    out = subprocess.run([agent, "--list-faults"], capture_output=True, text=True, check=True).stdout
    return [l for l in out.splitlines() if l and not l.startswith(" ")]


def start_http(agent, extra):
    p = subprocess.Popen([agent, "--http", "0", "-q"] + extra, stdout=subprocess.PIPE, text=True)
    deadline = time.time() + 15
    while time.time() < deadline:
        line = p.stdout.readline()
        m = re.search(r"listening on (\S+)", line or "")
        if m:
            return p, m.group(1)
    p.kill()
    raise SystemExit("agent did not report its URL")


def run(args, fault, scale):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        extra = ["--fault", fault] if fault else []
        cmd = [args.conform, "run", "-j2", "-q", "--color", "never", "--timeout-scale", scale, "--json", report]
        proc = None
        if args.mode == "http":
            proc, url = start_http(args.agent, args.agent_arg + extra)
            cmd += ["--url", url, "--header", "Authorization: Bearer a2a-conform"]
        else:
            cmd += ["--agent", " ".join([args.agent] + extra)]
        try:
            res = subprocess.run(cmd + args.runner_arg + args.suites, capture_output=True, text=True, timeout=900)
        finally:
            if proc:
                proc.terminate()
                proc.wait(10)
        if not os.path.exists(report):
            raise SystemExit(f"no report under fault {fault!r}: {res.stdout[-2000:]} {res.stderr[-2000:]}")
        with open(report) as f:
            return json.load(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["stdio", "http"], required=True)
    ap.add_argument("--faults", default="")
    ap.add_argument("--agent", default=os.path.join(ROOT, "build/bin/a2a-ref-agent"))
    ap.add_argument("--conform", default=os.path.join(ROOT, "build/bin/a2a-conform"))
    ap.add_argument("--scale", default="0.5")
    ap.add_argument("--runner-arg", action="append", default=[], help="extra a2a-conform argument (repeatable)")
    ap.add_argument("--agent-arg", action="append", default=[], help="extra a2a-ref-agent argument (repeatable; http mode)")
    ap.add_argument("suites", nargs="*")
    args = ap.parse_args()
    if not args.suites:
        args.suites = [os.path.join(ROOT, "suites/a2a")] + (
            [os.path.join(ROOT, "suites/http"), os.path.join(ROOT, "suites/a2a-0.3")] if args.mode == "http"
            else [os.path.join(ROOT, "suites/stdio")])
    names = args.faults.split(",") if args.faults else [""] + faults(args.agent)
    for f in names:
        rep = run(args, f, args.scale)
        failing = [{"id": s["id"], "binding": s.get("binding", ""), "outcome": s["outcome"],
                    "reason": s.get("reason", "")[:300]}
                   for s in rep.get("scenarios", []) if s["outcome"] not in ("PASS", "SKIP")]
        print(json.dumps({"fault": f, "failing": failing}), flush=True)


if __name__ == "__main__":
    main()
