#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Extract the time-stamp part of the ring buffer's reserve path from a tree.

rbreserve must run the tree's own code, not a copy that drifts: this pulls
__rb_reserve_next() (steps A-F), rb_reserve_next_event(), the commit and
discard paths and what they call that decides a time stamp, verbatim, out
of kernel/trace/ring_buffer.c and include/linux/ring_buffer.h into one C
file that compiles against rbr_shim.h.  Anything it cannot find is named,
and the build stops.

A seeded fault (--fault NAME) is a small edit of the extracted text that
re-introduces a time-stamp bug; its text must match exactly once, or the
build stops: a fault that no longer applies to a tree is not silently a
copy of the tree.

usage: extract-reserve.py KSRC OUT_C [--fault NAME]
       extract-reserve.py --faults [KSRC]       (their names, one a line: all,
                                                 or those that apply to KSRC)
       extract-reserve.py --variants-c OUT_C [NAME...]  (the table of variants:
                                                 the tree and these faults)
       extract-reserve.py --faults-what NAME     (what the fault does)
       extract-reserve.py --seed KSRC OUTDIR NAME  (KSRC's ring_buffer.c and
                                                 headers in OUTDIR, with the
                                                 fault in ring_buffer.c)
"""
import os
import re
import sys

# What the reserve path is made of, in the order the C file needs it
# (each file's items come out in source order).  optional: not in every
# line (6.12 sized the sub-buffers; 6.1 has BUF_PAGE_SIZE).
HEADER_ITEMS = [
    ("enum", "RINGBUF_TYPE_DATA_TYPE_LEN_MAX", False),
    ("enum", "RB_FL_OVERWRITE", False),
    ("struct", "ring_buffer_event", False),
]
RB_ITEMS = [
    ("define", "TS_MSB", False),
    ("define", "ABS_TS_MASK", False),
    ("define", "BUF_PAGE_HDR_SIZE", False),
    ("define", "RB_EVNT_HDR_SIZE", False),
    ("define", "RB_ALIGNMENT", False),
    ("define", "RB_MAX_SMALL_DATA", False),
    ("define", "RB_EVNT_MIN_SIZE", False),
    ("define", "RINGBUF_TYPE_DATA", False),
    ("enum", "RB_LEN_TIME_EXTEND", False),
    ("define", "skip_time_extend", False),
    ("define", "extended_time", False),
    ("define", "TS_SHIFT", False),
    ("define", "TS_MASK", False),
    ("define", "TS_DELTA_TEST", False),
    ("define", "RB_WRITE_MASK", False),
    ("define", "RB_WRITE_INTCNT", False),
    ("define", "BUF_PAGE_SIZE", True),
    ("define", "BUF_MAX_DATA_SIZE", True),
    ("define", "MAX_NEST", False),
    ("define", "DEBUG_SHIFT", False),
    ("define", "CHECK_FULL_PAGE", False),
    ("define", "RB_TIME_NONE", True),
    ("define", "buffer_warn_return", True),
    ("define", "RB_PAGE_NORMAL", False),
    ("define", "RB_PAGE_HEAD", False),
    ("define", "RB_FLAG_MASK", False),
    ("define", "RB_PAGE_MOVED", False),
    ("struct", "buffer_data_page", False),
    ("struct", "ring_buffer_cpu_meta", True),
    ("struct", "buffer_page", False),
    ("struct", "rb_event_info", False),
    ("enum", "RB_ADD_STAMP_NONE", False),
    ("func", "rb_null_event", False),
    ("func", "rb_event_set_padding", False),
    ("func", "rb_event_data_length", False),
    ("func", "rb_event_length", False),
    ("func", "rb_event_ts_length", False),
    ("func", "rb_event_time_stamp", False),
    ("func", "rb_event_data", False),
    ("func", "rb_subbuf_size", True),
    ("func", "rb_page_capacity", True),
    ("func", "rb_time_stamp", False),
    ("func", "rb_fix_abs_ts", False),
    ("func", "test_time_stamp", False),
    ("func", "rb_list_head", False),
    ("func", "rb_is_head_page", False),
    ("func", "rb_is_reader_page", False),
    ("func", "rb_inc_page", False),
    ("func", "rb_tail_page_update", False),
    ("func", "rb_data_page_commit", True),
    ("func", "rb_page_commit", False),
    ("func", "rb_page_write", False),
    ("func", "__rb_page_index", False),
    ("func", "rb_commit_index", False),
    ("func", "rb_event_index", False),
    ("func", "rb_read_data_buffer", True),
    ("func", "dump_buffer_page", False),
    ("func", "check_buffer", False),
    ("func", "rb_reset_tail", False),
    ("func", "rb_move_tail", False),
    ("func", "rb_add_time_stamp", False),
    ("func", "rb_check_timestamp", False),
    ("func", "rb_add_timestamp", False),
    ("func", "rb_update_event", False),
    ("func", "rb_calculate_event_length", False),
    ("func", "rb_try_to_discard", False),
    ("func", "rb_start_commit", False),
    ("func", "rb_set_commit_to_write", False),
    ("func", "rb_end_commit", False),
    ("func", "rb_event_discard", False),
    ("func", "rb_commit", False),
    ("func", "rb_event_came_after", True),
    ("func", "__rb_reserve_next", False),
    ("func", "rb_reserve_next_event", False),
    ("func", "ring_buffer_lock_reserve", False),
    ("func", "ring_buffer_event_data", False),
    ("func", "ring_buffer_unlock_commit", False),
    ("func", "ring_buffer_discard_commit", False),
    ("func", "ring_buffer_event_time_stamp", False),
]

# The 64-bit rb_time_t (local64_t): 6.12 has only these; in 6.1 they are
# the #else of RB_TIME_32 (the 32-bit form is rbmodel's subject).
RB_TIME_FUNCS = ["rb_time_read", "rb_time_set"]

# Seeded faults: upstream time-stamp bugs of this code put back, and the
# pre-2020 zero delta of nested events.  (name, what, function, old, new);
# old must occur exactly once in the function.
FAULTS = [
    ("nested-zero-delta",
     "the pre-2020 behaviour: an event reserved inside another's reservation "
     "(committing > 1) records delta 0, the time of the event before it",
     "__rb_reserve_next",
     "\t\t\tinfo->delta = info->ts - info->after;\n\t\telse\n",
     "\t\t\tinfo->delta = local_read(&cpu_buffer->committing) > 1 ? 0 :"
     " info->ts - info->after;\n\t\telse\n"),
    ("fast-path-always",
     "the fast path without its before_stamp == write_stamp test: an event "
     "interrupting another between B and D takes its delta from a write_stamp "
     "that is not the last event's",
     "__rb_reserve_next",
     "info->before != info->after",
     "0"),
    ("b-after-c",
     "before_stamp set after C (the space reserved first): an interrupt "
     "between C and B sees before_stamp == write_stamp and trusts a "
     "write_stamp the interrupted event is about to change",
     "__rb_reserve_next",
     None, None),
    ("f-no-write-check",
     "step F without its tail_page->write re-check: an event interrupted "
     "between A and C and again between C and F takes its delta from a "
     "write_stamp that an event after it set",
     "__rb_reserve_next",
     # the re-check as the trees have it, or as our fix for (p) asks it
     re.compile(r"(?:write == \(local_read\(&tail_page->write\) & RB_WRITE_MASK\)|"
                r"!rb_event_came_after\(cpu_buffer, tail_page, write\)) &&"), ""),
    ("f-no-tail-check",
     "step F without our series' test of the tail page (finding (p) put "
     "back): an event that took the last space of its sub-buffer keeps a "
     "delta past the event that came after it on the next one",
     "__rb_reserve_next",
     "\t\t    READ_ONCE(cpu_buffer->tail_page) == tail_page &&\n", ""),
    ("f-no-after-lt-ts",
     "step F without 'info->after < ts': the delta from a write_stamp that is "
     "not older than the new time stamp",
     "__rb_reserve_next",
     " && info->after < ts", ""),
    ("f-always-delta-zero",
     "step F always takes the documented loss: an event interrupted between A "
     "and C gets delta 0, the interrupter's time, even where F's check held "
     "(nothing came after its C, before_stamp == write_stamp): a stamp inside "
     "its window but not its own clock read",
     "__rb_reserve_next",
     "\t\t\tinfo->delta = ts - info->after;\n",
     "\t\t\tinfo->delta = 0;\n"),
    ("slow-path-sets-write-stamp",
     "the slow path puts its own time stamp into write_stamp (until 'ring-buffer: "
     "Fix slowpath of interrupted event' it did, with a cmpxchg at F)",
     "__rb_reserve_next",
     "\t\tinfo->ts = ts;\n",
     "\t\tinfo->ts = ts;\n\t\trb_time_set(&cpu_buffer->write_stamp, ts);\n"),
    ("slow-path-stale-write-stamp",
     "the slow path, when F finds nothing came after it, puts the time stamp "
     "read at A into write_stamp instead of its own ('ring-buffer: Update "
     "write stamp with the correct ts', 55ea4cf40380)",
     "__rb_reserve_next",
     "\t\t\tinfo->delta = ts - info->after;\n",
     "\t\t\tinfo->delta = ts - info->after;\n"
     "\t\t\t(void)local64_cmpxchg(&cpu_buffer->write_stamp.time,\n"
     "\t\t\t\t\t      info->after, info->ts);\n"),
    ("d-puts-back-write-stamp",
     "an event interrupted between C and D puts the before_stamp it reads "
     "after D back into write_stamp, making the two equal again ('ring-buffer: "
     "Do not try to put back write_stamp', dd9394257078)",
     "__rb_reserve_next",
     [(" /*D*/\t\trb_time_set(&cpu_buffer->write_stamp, info->ts);\n",
       " /*D*/\t\trb_time_set(&cpu_buffer->write_stamp, info->ts);\n"
       "\t\tbarrier();\n"
       " /*E*/\t\trb_time_read(&cpu_buffer->before_stamp, &save_before);\n"),
      ("\t\tcheck_buffer(cpu_buffer, info, tail);\n",
       "\t\tcheck_buffer(cpu_buffer, info, tail);\n"
       "\t\tif (unlikely(info->ts != save_before)) {\n"
       "\t\t\t/* SLOW PATH - Interrupted between C and E */\n"
       "\t\t\trb_time_read(&cpu_buffer->write_stamp, &info->after);\n"
       "\t\t\t/* Write stamp must only go forward */\n"
       "\t\t\tif (save_before > info->after)\n"
       "\t\t\t\t(void)local64_cmpxchg(&cpu_buffer->write_stamp.time,\n"
       "\t\t\t\t\t\t      info->after, save_before);\n"
       "\t\t}\n"),
      ("\tif (likely(tail == w)) {\n",
       "\tif (likely(tail == w)) {\n\t\tu64 save_before;\n\n")],
     None),
    ("move-tail-syncs-before-stamp",
     "an event that finds the sub-buffer full sets the before_stamp to the "
     "write_stamp before it moves to the next one ('ring-buffer: Do not update "
     "before stamp when switching sub-buffers'): it makes them equal although "
     "the write_stamp may be stale",
     "__rb_reserve_next",
     "\t\tcheck_buffer(cpu_buffer, info, CHECK_FULL_PAGE);\n",
     "\t\t/* before and after may now different, fix it up*/\n"
     "\t\trb_time_read(&cpu_buffer->before_stamp, &info->before);\n"
     "\t\trb_time_read(&cpu_buffer->write_stamp, &info->after);\n"
     "\t\tif (info->before != info->after)\n"
     "\t\t\t(void)local64_cmpxchg(&cpu_buffer->before_stamp.time,\n"
     "\t\t\t\t\t      info->before, info->after);\n"
     "\t\tcheck_buffer(cpu_buffer, info, CHECK_FULL_PAGE);\n"),
    ("came-after-write-only",
     "our series' check for an event that came after this one asks the write "
     "index alone, blind to an event on the next sub-buffer (finding (g), the "
     "first version of (m1)'s fix)",
     "rb_event_came_after",
     "write != (local_read(&tail_page->write) & RB_WRITE_MASK) ||\n"
     "\t       READ_ONCE(cpu_buffer->tail_page) != tail_page;\n",
     "write != (local_read(&tail_page->write) & RB_WRITE_MASK);\n"),
    ("slow-path-old-ts",
     "the slow path keeps the time stamp read at A instead of the one its "
     "delta is taken for ('ring-buffer: Set the right timestamp in the slow "
     "path of __rb_reserve_next()')",
     "__rb_reserve_next",
     "\t\tinfo->ts = ts;\n", ""),
    ("discard-keeps-stamps",
     "rb_try_to_discard() gives the space back without touching before_stamp "
     "or write_stamp ('ring-buffer: Force absolute timestamp on discard of "
     "event'): the next event's delta is from the removed event",
     "rb_try_to_discard",
     re.compile(r"\t\trb_time_set\(&cpu_buffer->(before|write)_stamp, 0\);\n"), ""),
    ("discard-delta-zero",
     "rb_event_discard() leaves a zero delta on the padding: a reader takes "
     "it for the end of the page",
     "rb_event_discard",
     "\tif (!event->time_delta)\n\t\tevent->time_delta = 1;\n", ""),
    ("no-time-extend",
     "A never asks test_time_stamp(): a delta too large for the event "
     "header's 27 bits gets no time extend and is cut to its low bits",
     "__rb_reserve_next",
     "unlikely(test_time_stamp(info->delta))", "0"),
    ("d-never-sets-write-stamp",
     "the fast path without D: write_stamp is never the last event's time, "
     "so every event finds before_stamp != write_stamp at A and takes a full "
     "time stamp: right stamps, a time extend on each event, no fast path",
     "__rb_reserve_next",
     " /*D*/\t\trb_time_set(&cpu_buffer->write_stamp, info->ts);\n", ""),
]
FAULT_NAMES = [f[0] for f in FAULTS]


def die(path, msg):
    sys.stderr.write("extract-reserve: %s: %s (the tree changed?)\n" % (path, msg))
    sys.exit(1)


def balanced(text, i, open_c, close_c):
    """Index just after the bracket that closes the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == open_c:
            depth += 1
        elif text[j] == close_c:
            depth -= 1
            if not depth:
                return j + 1
    return -1


def functions(src, name):
    """Every definition of function NAME in src: (start, text)."""
    out = []
    pat = re.compile(r"^(?:[A-Za-z_][\w \t\*]*\n)?(?:[A-Za-z_][\w \t\*]*?\b)?%s\(" % re.escape(name),
                     re.M)
    for m in pat.finditer(src):
        head = m.group(0)
        if head.lstrip().startswith(("return", "if", "else")) or "=" in head:
            continue
        close = balanced(src, m.end() - 1, "(", ")")
        if close < 0:
            continue
        rest = src[close:]
        brace = len(rest) - len(rest.lstrip())
        if not rest[brace:].startswith("{"):
            continue	# a prototype or a call
        end = re.compile(r"^}\n", re.M).search(src, close)
        if end:
            out.append((m.start(), src[m.start():end.end()]))
    return out


def find(src, kind, name):
    if kind == "define":
        m = re.search(r"^#define %s\b(?:.*\\\n)*.*\n" % re.escape(name), src, re.M)
        return (m.start(), m.group(0)) if m else None
    if kind == "struct":
        m = re.search(r"^struct %s \{.*?^\};\n" % re.escape(name), src, re.M | re.S)
        return (m.start(), m.group(0)) if m else None
    if kind == "enum":
        m = re.search(r"^enum(?: \w+)? \{[^}]*\b%s\b[^}]*^\};\n" % re.escape(name),
                      src, re.M)
        return (m.start(), m.group(0)) if m else None
    f = functions(src, name)
    return f[0] if f else None


def rb_time_funcs(path, src):
    """The local64_t rb_time_read() and rb_time_set(), wherever they are."""
    parts = []
    for name in RB_TIME_FUNCS:
        f = [x for x in functions(src, name) if "local64_" in x[1]]
        if not f:
            die(path, "no local64_t %s()" % name)
        parts.append(f[0])
    m = re.search(r"^struct rb_time_struct \{\n\tlocal64_t\s+time;\n\};\n", src, re.M)
    if not m:
        die(path, "no 'struct rb_time_struct { local64_t time; }'")
    # rbr_shim.h declares it (struct ring_buffer_per_cpu holds two)
    return [(m.start(), "/* struct rb_time_struct { local64_t time; }: in rbr_shim.h */\n")] + parts


def apply_fault(path, parts, fault):
    name, _, func, old, new = fault
    for i, (start, text) in enumerate(parts):
        if not functions(text, func):
            continue
        if name == "b-after-c":
            b = re.search(r"^ /\*B\*/\trb_time_set\(&cpu_buffer->before_stamp, info->ts\);\n",
                          text, re.M)
            c = re.search(r"^ /\*C\*/\twrite = local_add_return\(info->length, "
                          r"&tail_page->write\);\n", text, re.M)
            if not b or not c or b.start() > c.start():
                die(path, "fault %s: no B before C in %s()" % (name, func))
            text = text[:b.start()] + text[b.end():c.end()] + b.group(0) + text[c.end():]
        else:
            # one edit, or a list of (old, new) edits, each applied exactly once
            for o, n in old if isinstance(old, list) else [(old, new)]:
                hits = o.findall(text) if isinstance(o, re.Pattern) else [None] * text.count(o)
                if len(hits) != 1:
                    die(path, "fault %s: its text occurs %d times in %s(), not once"
                        % (name, len(hits), func))
                text = o.sub(n, text) if isinstance(o, re.Pattern) else text.replace(o, n)
        parts[i] = (start, text)
        return
    die(path, "fault %s: no function %s()" % (name, func))


def applicable(ksrc):
    """The faults whose function the tree has (came-after-write-only edits
    a function of our series, f-no-tail-check a test of it: not in an
    unmodified tree)."""
    path = "%s/kernel/trace/ring_buffer.c" % ksrc
    try:
        src = open(path).read()
    except OSError as e:
        die(path, "cannot read: %s" % e.strerror)
    # f-no-tail-check edits a test of our series inside a function every
    # tree has: it applies where its text is there
    return [f[0] for f in FAULTS if functions(src, f[2]) and
            (f[0] != "f-no-tail-check" or f[3] in src)]


def seed_tree(ksrc, out, name):
    """A copy of the tree's files the model reads into OUT, with the seeded
    fault NAME put into ring_buffer.c itself (the same edit as --fault
    makes of the extracted code): a tree a run or the model can be given,
    to see which check catches the fault."""
    fault = FAULTS[FAULT_NAMES.index(name)]
    path = "%s/kernel/trace/ring_buffer.c" % ksrc
    try:
        src = open(path).read()
    except OSError as e:
        die(path, "cannot read: %s" % e.strerror)
    before = functions(src, fault[2])
    after = list(before)
    apply_fault(path, after, fault)
    for (start, old), (_, new) in sorted(zip(before, after), reverse=True):
        src = src[:start] + new + src[start + len(old):]
    for rel in ("include/linux/ring_buffer.h", "include/linux/ring_buffer_types.h",
                "kernel/trace/ring_buffer.c"):
        if rel.endswith(".h") and not os.path.exists("%s/%s" % (ksrc, rel)):
            continue
        os.makedirs(os.path.dirname("%s/%s" % (out, rel)), exist_ok=True)
        with open("%s/%s" % (out, rel), "w") as o:
            o.write(src if rel.endswith(".c") else open("%s/%s" % (ksrc, rel)).read())


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--faults-what" and args[1] in FAULT_NAMES:
        print(FAULTS[FAULT_NAMES.index(args[1])][1])
        return
    if len(args) == 4 and args[0] == "--seed":
        if args[3] not in FAULT_NAMES:
            sys.stderr.write("extract-reserve: no fault '%s' (have: %s)\n"
                             % (args[3], ", ".join(FAULT_NAMES)))
            sys.exit(2)
        seed_tree(args[1], args[2], args[3])
        return
    if args[:1] == ["--faults"] and len(args) <= 2:
        print("\n".join(applicable(args[1]) if len(args) == 2 else FAULT_NAMES))
        return
    if len(args) >= 2 and args[0] == "--variants-c":
        names = [n for n in args[2:] if n != "tree"]
        bad = [n for n in names if n not in FAULT_NAMES]
        if bad:
            sys.stderr.write("extract-reserve: no fault '%s'\n" % bad[0])
            sys.exit(2)
        syms = ["rbr_variant_" + n.replace("-", "_") for n in ["tree"] + names]
        with open(args[1], "w") as o:
            o.write("/* Generated by extract-reserve.py: do not edit. */\n")
            o.write('#include "rbr.h"\n\n')
            o.write("".join("extern const struct rbr_variant %s;\n" % s for s in syms))
            o.write("\nconst struct rbr_variant *const rbr_variants[] = {\n")
            o.write("".join("\t&%s,\n" % s for s in syms))
            o.write("};\nconst unsigned int rbr_nvariants = %d;\n" % len(syms))
        return
    fault = None
    if len(args) == 4 and args[2] == "--fault":
        if args[3] not in FAULT_NAMES:
            sys.stderr.write("extract-reserve: no fault '%s' (have: %s)\n"
                             % (args[3], ", ".join(FAULT_NAMES)))
            sys.exit(2)
        fault = FAULTS[FAULT_NAMES.index(args[3])]
        args = args[:2]
    if len(args) != 2:
        sys.stderr.write(__doc__.split("\n\n")[-1].strip() + "\n")
        sys.exit(2)
    ksrc, out = args
    text = {}
    for rel in ("include/linux/ring_buffer.h", "kernel/trace/ring_buffer.c"):
        try:
            text[rel] = open("%s/%s" % (ksrc, rel)).read()
        except OSError as e:
            die("%s/%s" % (ksrc, rel), "cannot read: %s" % e.strerror)

    # Since 7.x the event header's sizes, the data page and
    # test_time_stamp() live in include/linux/ring_buffer_types.h, shared
    # with simple_ring_buffer.c: taken whole, and what it defines is not
    # looked for in ring_buffer.c.
    types_rel = "include/linux/ring_buffer_types.h"
    types = None
    try:
        types = open("%s/%s" % (ksrc, types_rel)).read()
    except OSError:
        pass
    in_types = set()
    if types is not None:
        body = re.sub(r"(?m)^#include .*\n", "", types)
        body = re.sub(r"(?s)^(?:/\*.*?\*/\s*)?#ifndef (\w+)\n#define \1\n(.*)#endif\s*$", r"\2", body)
        in_types = set(re.findall(r"(?m)^#\s*define (\w+)", body))
        in_types |= set(re.findall(r"(?m)^struct (\w+) \{", body))
        in_types |= set(re.findall(r"(?m)^static inline \w+ (\w+)\(", body))

    chunks = []
    for rel, items in (("include/linux/ring_buffer.h", HEADER_ITEMS),
                       ("kernel/trace/ring_buffer.c", RB_ITEMS)):
        path = "%s/%s" % (ksrc, rel)
        parts, found = [], set()
        if rel.endswith(".c") and types is not None:
            chunks.append(("%s/%s" % (ksrc, types_rel), [(0, body)], set(in_types)))
        for kind, name, optional in items:
            if rel.endswith(".c") and name in in_types:
                continue
            f = find(text[rel], kind, name)
            if not f:
                if optional:
                    continue
                die(path, "cannot find %s %s" % (kind, name))
            found.add(name)
            parts.append(f)
        if rel.endswith(".c"):
            parts += rb_time_funcs(path, text[rel])
            if fault:
                apply_fault(path, parts, fault)
        # one item can hold another (an enum with two of our names)
        seen, uniq = set(), []
        for p in sorted(parts):
            if p[0] not in seen:
                seen.add(p[0])
                uniq.append(p)
        chunks.append((path, uniq, found))
    # the tree declares what it uses before its definition in places
    # (rb_time_stamp()); declare every extracted function first
    protos = []
    for _, parts, _ in chunks:
        for _, t in parts:
            head = t.split("{", 1)[0]
            if "(" in head and not head.lstrip().startswith(("#", "struct", "enum", "/*")):
                protos.append(head.rstrip() + ";\n")

    with open(out, "w") as o:
        o.write("/* Generated from %s by extract-reserve.py: do not edit. */\n" % ksrc)
        o.write('#include "rbr_shim.h"\n\n')
        nhead = 2 if types is not None else 1
        for path, parts, found in chunks[:nhead]:
            o.write("/* ---- %s ---- */\n" % path)
            for _, t in parts:
                o.write(t + "\n")
        o.write("/* ---- declarations of what follows ---- */\n")
        o.write("".join("struct %s;\n" % n for kind, n, _ in RB_ITEMS if kind == "struct"))
        o.write("".join(protos) + "\n")
        for path, parts, found in chunks[nhead:]:
            o.write("/* ---- %s ---- */\n" % path)
            for _, t in parts:
                o.write(t + "\n")
        o.write('#define RBR_NAME "%s"\n' % (fault[0] if fault else "tree"))
        o.write('#define RBR_WHAT "%s"\n' % (fault[1] if fault else
                "the tree's reserve path, extracted from ring_buffer.c"))
        unlock = functions(text["kernel/trace/ring_buffer.c"], "ring_buffer_unlock_commit")[0][1]
        if "struct ring_buffer_event *event" in unlock.split("{")[0]:
            o.write("#define RBR_UNLOCK_COMMIT_TAKES_EVENT 1\n")
    print("extract-reserve: %s%s: %d items" % (ksrc, " (fault %s)" % fault[0] if fault else "",
                                                sum(len(c[1]) for c in chunks)))


if __name__ == "__main__":
    main()
