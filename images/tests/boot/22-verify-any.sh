#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: rbcheck verify on any capture: under the counter clock the fixed kernel's captures PASS the rules over every event on both lines, the legacy mode's FAIL them, its own kernel events alone too; under the local clock they PASS
#
# The rules over every event (docs/checker.md, "Any capture") on the
# guest's own captures: trace.dat (rbstress and sched_switch) and
# other.dat (the kernel's sched, irq and timer events alone), recorded
# under the counter clock, where equal stamps are never honest but for an
# event interrupted before its reservation.  No discard phase (--phases
# none): finding (d), a discarded event's delta of 1 read as none, shows
# under this clock and would make an honest kernel's stamps equal.
. "$(dirname "$0")/../lib.sh"

boot --clock counter --duration 10 --phases none
generic "$(rfile trace.dat)"
[ "$grc" = 0 ] && [ "$(gfield 'r["distinct"]["verdict"]')" = PASS ] &&
	[ "$(gfield 'g["counter_clock"]')" = True ] &&
	ok "our series: trace.dat names the counter clock and PASSes distinct: $(gfield 'r["distinct"]["checked"]') checked, $(gfield 'g["shared_with_interrupter"]') interrupted events with their interrupter's stamp" ||
	not_ok "our series: trace.dat PASSes distinct under the counter clock (exit $grc, $(gfield 'r["distinct"]["verdict"]'), see $res)"
other_dat_taps "our series, counter clock: "

boot --kernel 6.12 --clock counter --duration 10 --phases none
must_pass "6.12, our series, counter clock: the run"
generic "$(rfile trace.dat)"
[ "$grc" = 0 ] && [ "$(gfield 'r["distinct"]["verdict"]')" = PASS ] &&
	ok "6.12, our series: trace.dat PASSes distinct under the counter clock: $(gfield 'r["distinct"]["checked"]') checked" ||
	not_ok "6.12, our series: trace.dat PASSes distinct under the counter clock (exit $grc, $(gfield 'r["distinct"]["verdict"]'), see $res)"
other_dat_taps "6.12, our series, counter clock: "

boot --clock local --duration 10
must_pass "local clock: the run (every rbstress rule under its own clock)"
generic "$(rfile trace.dat)"
[ "$grc" = 0 ] && [ "$(gfield 'r["order"]["verdict"]')" = PASS ] &&
	[ "$(gfield 'r["distinct"]["verdict"]')" = SKIP ] &&
	ok "local clock: trace.dat PASSes order ($(gfield 'r["order"]["checked"]') checked), distinct SKIP (not the counter clock)" ||
	not_ok "local clock: trace.dat PASSes order, distinct SKIP (exit $grc, $(gfield 'r["order"]["verdict"]')/$(gfield 'r["distinct"]["verdict"]'), see $res)"
other_dat_taps "local clock: "

boot --clock counter --duration 10 --phases none --legacy-nested-ts
generic "$(rfile trace.dat)"
[ "$grc" = 1 ] && [ "$(gfield 'r["distinct"]["verdict"]')" = FAIL ] &&
	ok "legacy mode: trace.dat FAILs distinct: $(gfield 'r["distinct"]["violations"]') events share the stamp of the event before them, not as an interrupted event after its interrupter" ||
	not_ok "legacy mode: trace.dat FAILs distinct (exit $grc, $(gfield 'r["distinct"]["verdict"]'), see $res)"
[ "$(gfield 'sum(p["delta_zero"] for p in g["pairs"]) * 2 > sum(p["count"] for p in g["pairs"])')" = True ] &&
	ok "legacy mode: most higher contexts right after a lower one have delta 0 (the signature)" ||
	not_ok "legacy mode: the delta-0 signature shows in the pairs"
# the kernel's own events alone show it too, with no rbstress event recorded
generic "$(rfile other.dat)"
[ "$grc" = 1 ] && [ "$(gfield 'r["distinct"]["verdict"]')" = FAIL ] &&
	ok "legacy mode: the kernel's own events (other.dat, $(gfield 'g["events"]') events) FAIL distinct too: $(gfield 'r["distinct"]["violations"]')" ||
	not_ok "legacy mode: the kernel's own events (other.dat) FAIL distinct (exit $grc, $(gfield 'r["distinct"]["verdict"]'), see $res)"
