"""Records as the lines ``blit dump`` prints (blit-cli RecordLine): ``index=I type=Name field=value ...
appended=TIME``, values as Java's ``String.valueOf`` writes them. Used by the tests to compare with dump, and by
``python -m blit dump``."""

import datetime
import decimal

import numpy as np


def java_double(x, digits=None):
    """``Double.toString(x)`` (or ``Float.toString`` given the float's shortest ``digits``): the shortest digits
    that round-trip, plain from 10^-3 to 10^7, else ``d.dddE±n``."""
    x = float(x)
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if str(x).startswith("-") else "0.0"
    d = decimal.Decimal(digits if digits is not None else repr(x))
    sign, ds, exp = d.as_tuple()
    ds = "".join(map(str, ds)).rstrip("0") or "0"
    point = len("".join(map(str, d.as_tuple()[1]))) + exp  # decimal point position relative to the digits
    s = "-" if sign else ""
    if 1e-3 <= abs(x) < 1e7:
        if point <= 0:
            return f"{s}0.{'0' * -point}{ds}"
        whole, frac = ds[:point].ljust(point, "0"), ds[point:]
        return f"{s}{whole}.{frac or '0'}"
    return f"{s}{ds[0]}.{ds[1:] or '0'}E{point - 1}"


def java_float(x):
    """``Float.toString`` of a float32 value."""
    return java_double(float(x), np.format_float_scientific(np.float32(x), unique=True))


def value_text(java_type, value):
    if java_type == "boolean":
        return "true" if value else "false"
    if java_type == "double":
        return java_double(value)
    if java_type == "float":
        return java_float(value)
    return str(int(value))


def appended_text(nanos):
    """Nine fraction digits, UTC; ``-`` for no time (format 1, or a time of 0, as dump prints it)."""
    if not nanos:
        return "-"
    seconds, frac = divmod(nanos, 10 ** 9)
    stamp = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=seconds)
    return f"{stamp:%Y-%m-%dT%H:%M:%S}.{frac:09d}Z"


def record_line(record, layout):
    """The dump line of a :class:`queue.Record` whose type has ``layout`` (None for a raw payload)."""
    if record.type is None:
        body = f"length={len(record.fields)} bytes={record.fields.hex()}"
        return f"index={record.index} {body} appended={appended_text(record.appended)}"
    parts = [f"index={record.index}", f"type={record.type}"]
    for field, value in zip(layout.fields, record.fields.values()):
        parts.append(f"{field.name}={value_text(field.type, value)}")
    parts.append(f"appended={appended_text(record.appended)}")
    return " ".join(parts)
