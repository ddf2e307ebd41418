#!/usr/bin/env python3
"""Writes each CMS prediction case's `predicted:` line (validation/cases/cms_predicted_*.yaml) from the answers of
a calibration's predictions file: the value, the one 95 % interval, the tolerance a rerun is held to (the
prediction's own reading's seeds', calibration's and model-form parts: bounded_parts_half_width), the command,
the top three assumptions with the answer at both ends of each, and the measurement that would pin the first.

Run: python3 scripts/prediction_cases_from_answers.py validation/calibration/cms_miniaod_2024_predictions.json
"""
import glob
import json
import os
import re
import sys

COMMAND = ("sonicsim calibrate --spec validation/calibration/cms_miniaod_2024.yaml --predict-from "
           "validation/calibration/cms_miniaod_2024_calibration.json")


def g(x):
    return "null" if x is None else f"{x:.4g}"


def quoted(text):
    return json.dumps(text, ensure_ascii=False)


def main(path):
    results = json.load(open(path))
    readings = {p["id"]: p for p in results["predictions"]}
    root = os.path.join(os.path.dirname(__file__), "..")
    for answer in results["answers"]:
        case = os.path.join(root, "validation", "cases", f"cms_predicted_{answer['id']}.yaml")
        if not os.path.exists(case):
            sys.exit(f"{case}: no prediction case for answer {answer['id']}")
        low, high = answer["interval95"]
        own = readings[answer["id"]]
        rests_on = [f"{a['name']}: {g(a['at_low'])} ({a['low_end']}) to {g(a['at_high'])} ({a['high_end']})"
                    for a in answer["assumptions"][:3]]
        line = ("predicted: {value: " + g(answer["value"]) + ", interval95: [" + g(low) + ", " + g(high) +
                "], reproduce_within: " + g(own["bounded_parts_half_width"]) + ", command: " + quoted(COMMAND) +
                ",\n            rests_on: [" + ",\n                       ".join(quoted(r) for r in rests_on) +
                "],\n            pinned_by: " + quoted(answer["assumptions"][0].get("pinned_by", "")) + "}\n")
        text = open(case).read()
        text = re.sub(r"^predicted: \{.*?\}\n(?=\S|\Z)", lambda _: line, text, flags=re.S | re.M)
        open(case, "w").write(text)
        print(f"{case}: {g(answer['value'])} [{g(low)}, {g(high)}]")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "validation/calibration/cms_miniaod_2024_predictions.json")
