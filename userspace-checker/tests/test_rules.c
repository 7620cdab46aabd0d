// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the rules: synthetic event streams, fed through the same
 * rb_verify_event() the live and trace.dat readers use.  Every rule has a
 * stream that PASSes and one that violates it and must FAIL.
 *
 * Notation in the comments: T is a normal-context (task) event, I an IRQ
 * event; a window (pre, idx, end] is that of struct rb_event.
 */
#include <stdint.h>

#include <kbuffer.h>

#include "rb_counters.h"
#include "rb_generic.h"
#include "rb_names.h"
#include "rb_report.h"
#include "rb_subbuf.h"
#include "rb_verify.h"
#include "rb_test.h"

/*
 * Parse @format (an event's format file) and take the context and clock
 * names from it, as rb_format_init() does with a capture's.  0 or -1.
 */
static int names_from(const char *format, size_t len)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *event;
	int ret = -1;

	if (tep && tep_parse_event(tep, format, len, "rbstress") == 0) {
		event = tep_find_event_by_name(tep, "rbstress", "rbstress_event");
		if (event) {
			rb_names_from_format(event);
			ret = 0;
		}
	}
	tep_free(tep);
	return ret;
}

static char fixture_format[8192];
static size_t fixture_len;

/* The names every test below sees: the module's, from the fixture's format. */
static void __attribute__((constructor)) load_fixture_names(void)
{
	FILE *f = fopen(RB_TEST_DATA "/rbstress_event.format", "r");

	fixture_len = f ? fread(fixture_format, 1, sizeof(fixture_format) - 1, f) : 0;
	if (f)
		fclose(f);
	if (!fixture_len || names_from(fixture_format, fixture_len) < 0)
		fprintf(stderr, "test_rules: cannot read the names in %s/rbstress_event.format\n",
			RB_TEST_DATA);
}

static struct rb_verifier *verifier(void)
{
	struct rb_settings set;

	rb_settings_default(&set);
	return rb_verifier_new(&set);
}

static struct rb_event ev(unsigned int ctx, uint64_t seq, uint32_t pre, uint32_t idx,
			  uint32_t end, uint64_t ts, uint64_t clock)
{
	static uint64_t offset;

	return (struct rb_event){
		.ctx = ctx, .seq = seq, .pre_idx = pre, .idx = idx, .end_idx = end,
		.ts = ts, .clock = clock, .clock_id = RB_CLOCK_GLOBAL,
		.pos = { .subbuf = 0, .offset = (offset += 0x40) },
	};
}

static void feed(struct rb_verifier *v, const struct rb_event *e, int n)
{
	for (int i = 0; i < n; i++)
		rb_verify_event(v, &e[i]);
	rb_verify_finish(v);
}

/* T holds its window open, I lands inside it after T reserved: I is later. */
static int clean_stream(struct rb_event *e)
{
	e[0] = ev(RB_CTX_NORMAL, 1, 0, 1, 2, 1000, 1010);	/* T#1 */
	e[1] = ev(RB_CTX_IRQ, 1, 1, 2, 2, 1500, 1505);		/* I#1 inside T#1 */
	e[2] = ev(RB_CTX_NORMAL, 2, 2, 3, 3, 2000, 2005);	/* T#2 */
	return 3;
}

TEST(clean_stream_passes)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[3];
	struct rb_ctx_stats tot[RB_CTX_MAX];

	feed(v, e, clean_stream(e));
	rb_verify_totals(v, tot);
	EXPECT_EQ(RB_PASS, rb_verdict(v), "a correctly stamped nested stream");
	EXPECT_EQ(1, tot[RB_CTX_IRQ].nested, "the IRQ event is counted as nested");
	EXPECT_EQ(1, v->pairs[RB_CTX_NORMAL][RB_CTX_IRQ].count, "one irq-in-normal pair");
	EXPECT_EQ(500, v->pairs[RB_CTX_NORMAL][RB_CTX_IRQ].min_delta, "its delta");
	rb_verifier_free(v);
}

TEST(time_going_backwards_fails_monotonic)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		ev(RB_CTX_NORMAL, 1, 0, 1, 1, 2000, 2001),
		ev(RB_CTX_NORMAL, 2, 1, 2, 2, 1999, 2002),
	};

	feed(v, e, 2);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_MONOTONIC), "1999 after 2000");
	EXPECT_EQ(1, v->rules[RB_RULE_MONOTONIC].violations, "one violation");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_MONOTONIC].examples[0], "backwards by 1 ns",
			    "the example says by how much");
	rb_verifier_free(v);
}

TEST(equal_time_stamps_pass_monotonic)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		ev(RB_CTX_NORMAL, 1, 0, 1, 1, 2000, 2001),
		ev(RB_CTX_NORMAL, 2, 1, 2, 2, 2000, 2002),
	};

	feed(v, e, 2);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_MONOTONIC), "equal is not backwards");
	rb_verifier_free(v);
}

TEST(cpus_are_independent)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		ev(RB_CTX_NORMAL, 1, 0, 1, 1, 2000, 2001),
		ev(RB_CTX_NORMAL, 1, 0, 1, 1, 1000, 1001),
	};

	e[1].cpu = 1;
	feed(v, e, 2);
	EXPECT_EQ(RB_PASS, rb_verdict(v), "an earlier stamp on another CPU is no violation");
	EXPECT_EQ(2, v->nr_cpus_seen, "two CPUs");
	rb_verifier_free(v);
}

/* The seven-year problem: a nested event stamped with its outer event's time. */
TEST(nested_event_with_zero_delta_fails)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[3];

	clean_stream(e);
	e[1].ts = e[0].ts;
	feed(v, e, 3);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_NESTED_DELTA), "delta 0 under a moving clock");
	EXPECT_EQ(RB_FAIL, rb_verdict(v), "the run fails");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_NESTED_DELTA].examples[0], "(delta 0)",
			    "the example names the problem");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_NESTED_DELTA].examples[0], "irq#1",
			    "the example shows the nested event");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_NESTED_DELTA].examples[0], "normal#1",
			    "the example shows the outer event");
	rb_verifier_free(v);
}

TEST(nested_event_earlier_than_outer_fails)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[3];

	clean_stream(e);
	e[1].ts = e[0].ts - 1;
	feed(v, e, 2);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_NESTED_DELTA), "nested stamped before outer");
	rb_verifier_free(v);
}

TEST(nested_zero_delta_with_a_clock_that_did_not_move_is_counted_not_failed)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[3];

	clean_stream(e);
	e[0].clock = e[0].ts;	/* e.g. trace_clock_global held flat */
	e[1].ts = e[0].ts;
	feed(v, e, 3);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_NESTED_DELTA), "no evidence of a wrong stamp");
	EXPECT_EQ(1, v->rules[RB_RULE_NESTED_DELTA].skipped_flat, "but it is counted");
	rb_verifier_free(v);
}

TEST(nested_event_stamped_before_outer_window_clock_fails)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[3];

	clean_stream(e);
	e[1].ts = e[0].clock - 1;	/* later than T, but before T read its clock */
	feed(v, e, 3);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_NESTED_DELTA), "stamp from before the window");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_NESTED_DELTA].examples[0], "before that window's clock read",
			    "the example says why");
	rb_verifier_free(v);
}

/*
 * The same stream while the buffer records with another clock than the
 * module reads (the clock fault switched trace_clock): a stamp and the
 * window's clock read are of two clocks, and nothing follows from their
 * order.  Back on the module's clock, the rule applies again.
 */
TEST(nested_window_clock_is_not_compared_across_clocks)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[3];

	clean_stream(e);
	e[1].ts = e[0].clock - 1;
	v->buffer_clock = RB_CLOCK_LOCAL;	/* the events read global */
	feed(v, e, 3);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_NESTED_DELTA), "two clocks: not compared");
	rb_verifier_free(v);

	v = verifier();
	clean_stream(e);
	e[1].ts = e[0].clock - 1;
	v->buffer_clock = RB_CLOCK_GLOBAL;
	feed(v, e, 3);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_NESTED_DELTA), "one clock: caught");
	rb_verifier_free(v);
}

/*
 * I ran after T reserved but before T's TP_fast_assign: nested after C, but
 * no clock read lies between the two reservations.
 */
static void between_c_and_window(struct rb_event e[2])
{
	e[0] = ev(RB_CTX_NORMAL, 1, 0, 2, 2, 1000, 1600);	/* T opened after I */
	e[1] = ev(RB_CTX_IRQ, 1, 0, 1, 1, 1000, 1000);		/* I, after T in buffer */
}

TEST(nested_between_reservation_and_window_equal_stamp_is_counted_not_failed)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2];

	between_c_and_window(e);
	feed(v, e, 2);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_NESTED_DELTA), "a flat clock explains it");
	EXPECT_EQ(1, v->rules[RB_RULE_NESTED_DELTA].skipped_flat, "counted");
	rb_verifier_free(v);
}

TEST(nested_between_reservation_and_window_earlier_stamp_fails)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2];

	between_c_and_window(e);
	e[1].ts = 999;
	feed(v, e, 2);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_NESTED_DELTA), "earlier than the outer event");
	rb_verifier_free(v);
}

TEST(nested_equal_stamp_under_counter_clock_fails)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2];

	between_c_and_window(e);
	e[0].clock_id = e[1].clock_id = RB_CLOCK_NONE;
	feed(v, e, 2);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_NESTED_DELTA), "the counter never repeats");
	rb_verifier_free(v);
}

TEST(nested_check_survives_idx_wraparound)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[3];

	clean_stream(e);
	e[0].pre_idx = UINT32_MAX - 1; e[0].idx = UINT32_MAX; e[0].end_idx = 0;
	e[1].pre_idx = UINT32_MAX; e[1].idx = 0; e[1].end_idx = 0;
	e[2].pre_idx = 0; e[2].idx = 1; e[2].end_idx = 1;
	e[1].ts = e[0].ts;
	feed(v, e, 3);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_NESTED_DELTA), "nesting across the wrap");
	rb_verifier_free(v);
}

TEST(stamp_after_own_clock_fails)
{
	struct rb_verifier *v = verifier();
	struct rb_event e = ev(RB_CTX_NORMAL, 1, 0, 1, 1, 1000, 999);

	feed(v, &e, 1);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_OWN_CLOCK), "stamped after its own clock read");
	rb_verifier_free(v);
}

TEST(stamp_far_before_own_clock_fails)
{
	struct rb_settings set;
	struct rb_verifier *v;
	struct rb_event e = ev(RB_CTX_IRQ, 1, 0, 1, 1, 1000, 1000 + 50001);

	rb_settings_default(&set);
	set.clock_bound_ns = 50000;
	v = rb_verifier_new(&set);
	feed(v, &e, 1);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_OWN_CLOCK), "50001 ns before, bound 50000");
	rb_verifier_free(v);

	v = rb_verifier_new(&set);
	e.clock = 1000 + 50000;
	feed(v, &e, 1);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_OWN_CLOCK), "exactly at the bound");
	rb_verifier_free(v);
}

TEST(counter_clock_skips_own_clock)
{
	struct rb_verifier *v = verifier();
	struct rb_event e = ev(RB_CTX_NORMAL, 1, 0, 1, 1, 1000, 0);

	e.clock_id = RB_CLOCK_NONE;
	feed(v, &e, 1);
	EXPECT_EQ(RB_SKIP, rb_rule_verdict(v, RB_RULE_OWN_CLOCK), "no clock read to compare with");
	rb_verifier_free(v);
}

/* I interrupted T before T reserved, so I landed first; T may have delta 0. */
TEST(interrupted_before_reservation_with_delta_zero_passes)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		ev(RB_CTX_IRQ, 1, 0, 1, 1, 1000, 1002),
		ev(RB_CTX_NORMAL, 1, 0, 2, 2, 1000, 1500),
	};
	struct rb_ctx_stats tot[RB_CTX_MAX];

	feed(v, e, 2);
	rb_verify_totals(v, tot);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_A_TO_C), "delta 0 is the documented loss");
	EXPECT_EQ(1, tot[RB_CTX_NORMAL].before_c, "counted as interrupted before C");
	EXPECT_EQ(1, tot[RB_CTX_NORMAL].before_c_zero, "with delta 0");
	rb_verifier_free(v);
}

TEST(interrupted_before_reservation_but_stamped_earlier_fails)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		ev(RB_CTX_IRQ, 1, 0, 1, 1, 1000, 1002),
		ev(RB_CTX_NORMAL, 1, 0, 2, 2, 999, 1500),
	};

	feed(v, e, 2);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_A_TO_C), "less than delta 0");
	rb_verifier_free(v);
}

TEST(no_interruption_before_reservation_skips_a_to_c)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[3];

	feed(v, e, clean_stream(e));
	EXPECT_EQ(RB_SKIP, rb_rule_verdict(v, RB_RULE_A_TO_C), "nothing to check");
	rb_verifier_free(v);
}

TEST(seq_gap_without_lost_events_fails)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		ev(RB_CTX_NORMAL, 1, 0, 1, 1, 1000, 1001),
		ev(RB_CTX_NORMAL, 3, 1, 2, 2, 2000, 2001),
	};

	feed(v, e, 2);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_SEQUENCE), "seq 1 then 3, nothing lost");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_SEQUENCE].examples[0], "from 1 to 3",
			    "the example shows the gap");
	rb_verifier_free(v);
}

TEST(seq_gap_after_reported_lost_events_passes)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		ev(RB_CTX_NORMAL, 1, 0, 1, 1, 1000, 1001),
		ev(RB_CTX_NORMAL, 3, 1, 2, 2, 2000, 2001),
	};
	struct rb_ctx_stats tot[RB_CTX_MAX];

	rb_verify_event(v, &e[0]);
	rb_verify_lost(v, 0, 1);
	rb_verify_event(v, &e[1]);
	rb_verify_finish(v);
	rb_verify_totals(v, tot);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_SEQUENCE), "the gap is where the loss was");
	EXPECT_EQ(1, tot[RB_CTX_NORMAL].lost, "one event counted lost");
	EXPECT_EQ(1, v->lost_events, "the buffer's report is kept");
	rb_verifier_free(v);
}

TEST(seq_going_backwards_fails_even_after_lost_events)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		ev(RB_CTX_NORMAL, 5, 0, 1, 1, 1000, 1001),
		ev(RB_CTX_NORMAL, 4, 1, 2, 2, 2000, 2001),
	};

	rb_verify_event(v, &e[0]);
	rb_verify_lost(v, 0, -1);
	rb_verify_event(v, &e[1]);
	rb_verify_finish(v);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_SEQUENCE), "a loss does not explain going back");
	rb_verifier_free(v);
}

TEST(more_missing_events_than_the_buffer_reported_lost_fails)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		ev(RB_CTX_NORMAL, 1, 0, 1, 1, 1000, 1001),
		ev(RB_CTX_NORMAL, 5, 1, 2, 2, 2000, 2001),
	};

	rb_verify_event(v, &e[0]);
	rb_verify_lost(v, 0, 1);	/* one lost, but seq 2, 3 and 4 are missing */
	rb_verify_event(v, &e[1]);
	rb_verify_finish(v);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_SEQUENCE), "3 missing, 1 reported");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_SEQUENCE].examples[0],
			    "3 events are missing but the buffer reported only 1 lost",
			    "the example names both counts");
	rb_verifier_free(v);
}

TEST(time_going_backwards_across_lost_events_fails)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		ev(RB_CTX_NORMAL, 1, 0, 1, 1, 2000, 2001),
		ev(RB_CTX_NORMAL, 3, 1, 2, 2, 1000, 1001),
	};

	rb_verify_event(v, &e[0]);
	rb_verify_lost(v, 0, 1);
	rb_verify_event(v, &e[1]);
	rb_verify_finish(v);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_MONOTONIC), "lost events do not excuse time going back");
	rb_verifier_free(v);
}

/* trace_clock switched: the kernel emptied the buffer, time starts anew. */
static int across_reset(struct rb_event *e)
{
	e[0] = ev(RB_CTX_NORMAL, 1, 0, 1, 1, 5000, 5001);
	e[1] = ev(RB_CTX_NORMAL, 5, 1, 2, 2, 1000, 1001);	/* 2-4 wiped */
	return 2;
}

TEST(buffer_reset_restarts_every_cpu)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2];

	across_reset(e);
	rb_verify_event(v, &e[0]);
	rb_verify_reset(v, RB_CLOCK_GLOBAL);
	rb_verify_event(v, &e[1]);
	rb_verify_finish(v);
	EXPECT_EQ(RB_PASS, rb_verdict(v), "earlier time and a seq gap after the reset");
	EXPECT_EQ(1, v->resets, "one reset");
	EXPECT_EQ(3, v->reset_wiped, "seq 2-4 counted as wiped by it");
	rb_verifier_free(v);
}

TEST(the_same_stream_without_a_reset_fails)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2];

	feed(v, e, across_reset(e));
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_MONOTONIC), "time went back");
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_SEQUENCE), "seq 2-4 vanished");
	rb_verifier_free(v);
}

static struct rb_event with_pre_clock(struct rb_event e, uint64_t pre_clock)
{
	e.pre_clock = pre_clock;
	e.has_pre_clock = 1;
	return e;
}

/* The stamp is taken between the two clock reads: before the first is wrong. */
TEST(stamp_before_its_pre_clock_fails_own_clock)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		with_pre_clock(ev(RB_CTX_NORMAL, 1, 0, 1, 1, 1000, 1001), 999),
		with_pre_clock(ev(RB_CTX_NORMAL, 2, 1, 2, 2, 1200, 1300), 1201),
	};

	feed(v, e, 2);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_OWN_CLOCK), "1 ns before its pre_clock");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_OWN_CLOCK].examples[0],
			    "1 ns before the clock read just before the tracepoint call",
			    "the example says by how much");
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_MONOTONIC), "no other rule sees it");
	rb_verifier_free(v);
}

/*
 * The other end of the window: the stamp may equal the clock read after
 * it, never pass it, pre_clock or not.  (Without a pre_clock a stamp past
 * the clock also trips the lower bound by underflow; with one, only this
 * check sees it.)
 */
TEST(stamp_after_its_own_clock_fails_with_a_pre_clock_too)
{
	struct rb_verifier *v = verifier();
	struct rb_event e = with_pre_clock(ev(RB_CTX_NORMAL, 1, 0, 1, 1, 1001, 1000), 900);

	feed(v, &e, 1);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_OWN_CLOCK), "1 ns after its clock read");
	EXPECT_EQ(1, v->rules[RB_RULE_OWN_CLOCK].violations, "one violation");
	rb_verifier_free(v);

	v = verifier();
	e.ts = 1000;
	feed(v, &e, 1);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_OWN_CLOCK), "equal to its clock read");
	rb_verifier_free(v);
}

/* With the window, no bound: a vCPU stall between the reads is no violation. */
TEST(stamp_inside_its_clock_window_passes_however_wide)
{
	struct rb_verifier *v = verifier();
	struct rb_event e = with_pre_clock(ev(RB_CTX_NORMAL, 1, 0, 1, 1, 1000, 5000001000ULL),
					   1000);

	feed(v, &e, 1);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_OWN_CLOCK), "5 s window, stamp inside");
	EXPECT_EQ(1, v->pre_clock_checked, "checked against the window");
	rb_verifier_free(v);

	v = verifier();
	e.has_pre_clock = 0;
	feed(v, &e, 1);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_OWN_CLOCK),
		  "without pre_clock the 1 s bound applies");
	rb_verifier_free(v);
}

/*
 * Interrupted between A and C, an event may take delta 0: the stamp of the
 * interrupter before it in the buffer, which came after its pre_clock.
 */
TEST(delta_0_after_an_interrupter_stays_in_the_window)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		with_pre_clock(ev(RB_CTX_IRQ, 1, 0, 1, 1, 1002, 1003), 1001),
		with_pre_clock(ev(RB_CTX_NORMAL, 1, 0, 2, 2, 1002, 1500), 1000),
	};

	feed(v, e, 2);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_OWN_CLOCK), "delta 0 inside the window");
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_A_TO_C), "and the A-C rule agrees");
	rb_verifier_free(v);
}

TEST(own_clock_of_another_clock_than_the_buffers_is_not_compared)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		ev(RB_CTX_NORMAL, 1, 0, 1, 1, 1000, 1001),
		ev(RB_CTX_NORMAL, 2, 1, 2, 2, 9000, 2001),	/* after its clock read */
	};

	e[1].clock_id = RB_CLOCK_LOCAL;
	v->buffer_clock = RB_CLOCK_GLOBAL;
	feed(v, e, 2);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_OWN_CLOCK), "the global event is fine");
	EXPECT_EQ(1, v->own_clock_other, "the local-clock event is counted, not compared");
	rb_verifier_free(v);

	v = verifier();
	e[1].clock_id = RB_CLOCK_GLOBAL;
	feed(v, e, 2);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_OWN_CLOCK), "with the same clock it fails");
	rb_verifier_free(v);
}

/* The module was reloaded: seq and idx start again, time goes on. */
TEST(module_reload_restarts_numbering_not_time)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[3] = {
		ev(RB_CTX_NORMAL, 41, 0, 1, 1, 1000, 1001),
		ev(RB_CTX_NORMAL, 42, 1, 2, 2, 2000, 2001),
		ev(RB_CTX_NORMAL, 1, 0, 1, 1, 3000, 3001),
	};

	e[0].load_id = e[1].load_id = 7;
	e[2].load_id = 8;
	feed(v, e, 3);
	EXPECT_EQ(RB_PASS, rb_verdict(v), "seq 1 after 42 from a new load");
	EXPECT_EQ(1, v->reloads, "one reload seen");
	rb_verifier_free(v);

	v = verifier();
	e[2].ts = 1500;
	feed(v, e, 3);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_MONOTONIC), "time may not go back across it");
	rb_verifier_free(v);

	v = verifier();
	e[2].ts = 3000;
	e[2].load_id = 7;
	feed(v, e, 3);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_SEQUENCE), "the same load going back to 1");
	rb_verifier_free(v);
}

static struct rb_verifier *filtered_verifier(uint64_t mask)
{
	struct rb_settings set;

	rb_settings_default(&set);
	set.filter_seq_mask = mask;
	return rb_verifier_new(&set);
}

TEST(gap_of_filtered_out_seq_passes_only_under_the_filter)
{
	struct rb_event e[2] = {
		ev(RB_CTX_NORMAL, 7, 0, 1, 1, 1000, 1001),
		ev(RB_CTX_NORMAL, 9, 1, 2, 2, 2000, 2001),	/* 8 & 7 == 0: filtered */
	};
	struct rb_verifier *v = filtered_verifier(7);

	feed(v, e, 2);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_SEQUENCE), "seq 8 fails 'seq & 7'");
	EXPECT_EQ(1, v->filtered, "counted as filtered");
	rb_verifier_free(v);

	v = verifier();
	feed(v, e, 2);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_SEQUENCE), "without the filter it is a gap");
	rb_verifier_free(v);

	v = filtered_verifier(7);
	e[0].seq = 6;
	e[1].seq = 8;	/* 7 & 7 != 0: the filter keeps it */
	feed(v, e, 2);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_SEQUENCE), "seq 7 would have passed the filter");
	rb_verifier_free(v);
}

/*
 * Finding (e): the pages an overrun overwrote also held events the filter
 * discarded.  Those were never entries, so the buffer's lost count leaves
 * them out; only the seqs the filter could have dropped may make up the
 * difference.
 */
static struct rb_verifier *lost_gap(uint64_t mask, uint64_t from, uint64_t to, long lost)
{
	struct rb_event e[2] = {
		ev(RB_CTX_NORMAL, from, 0, 1, 1, 1000, 1001),
		ev(RB_CTX_NORMAL, to, 1, 2, 2, 2000, 2001),
	};
	struct rb_verifier *v = mask ? filtered_verifier(mask) : verifier();

	rb_verify_event(v, &e[0]);
	rb_verify_lost(v, 0, lost);
	rb_verify_event(v, &e[1]);
	rb_verify_finish(v);
	return v;
}

TEST(lost_gap_holding_filtered_out_seqs_passes_only_under_the_filter)
{
	/* seqs 2..9 missing, 7 reported lost: seq 8 fails 'seq & 7' */
	struct rb_verifier *v = lost_gap(7, 1, 10, 7);

	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_SEQUENCE), "seq 8 was filtered, not lost");
	EXPECT_EQ(1, v->cpu_lost_filterable[0], "one filterable seq in the gap");
	rb_verifier_free(v);

	v = lost_gap(0, 1, 10, 7);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_SEQUENCE), "without the filter 8 > 7");
	rb_verifier_free(v);

	/* 'seq & 63' over seqs 2..199: 64, 128 and 192 are dropped */
	v = lost_gap(63, 1, 200, 195);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_SEQUENCE), "198 missing, 3 filterable");
	EXPECT_EQ(3, v->cpu_lost_filterable[0], "three filterable seqs");
	rb_verifier_free(v);
}

TEST(lost_gap_beyond_what_the_filter_explains_fails)
{
	/* seqs 2..9 missing, 1 filterable, 6 reported lost: one unexplained */
	struct rb_verifier *v = lost_gap(7, 1, 10, 6);

	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_SEQUENCE), "7 missing, 6 reported");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_SEQUENCE].examples[0],
			    "7 events are missing (and 1 the filter may have dropped) but the "
			    "buffer reported only 6 lost", "the example names the filter's share");
	rb_verifier_free(v);
	v = lost_gap(63, 1, 200, 194);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_SEQUENCE), "195 unfilterable, 194 reported");
	rb_verifier_free(v);
}

TEST(stamp_after_own_clock_under_a_filter_is_the_commit_stamp)
{
	struct rb_event e[1] = { ev(RB_CTX_NORMAL, 1, 0, 1, 1, 2000, 1000) };
	struct rb_verifier *v = filtered_verifier(7);

	feed(v, e, 1);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_OWN_CLOCK) == RB_FAIL ? RB_FAIL : RB_PASS,
		  "not a violation under a filter");
	EXPECT_EQ(1, v->stamped_at_commit, "counted as stamped at commit");
	rb_verifier_free(v);
}

/*
 * A sub-buffer as the x86_64 guest writes it: 8-byte time stamp, 8-byte
 * commit word, then 4-byte event headers (type_len in the low 5 bits).
 */
static unsigned int put_event(unsigned char *page, unsigned int off, uint32_t delta,
			      uint64_t clock, uint64_t seq)
{
	uint32_t h = (delta << 5) | 20;	/* 80 bytes: the test format's 78, aligned */
	unsigned char *d = page + off + 4;

	memcpy(page + off, &h, 4);
	memset(d, 0, 80);
	d[0] = 300 & 0xff;		/* common_type: the format's ID */
	d[1] = 300 >> 8;
	memcpy(d + 8, &clock, 8);
	memcpy(d + 16, &seq, 8);
	d[77] = RB_CLOCK_GLOBAL;	/* clock_id */
	return off + 84;
}

static unsigned int put_discard(unsigned char *page, unsigned int off, uint32_t delta)
{
	uint32_t h = (delta << 5) | 29, len = 80;

	memcpy(page + off, &h, 4);
	memcpy(page + off + 4, &len, 4);
	return off + 4 + len;
}

static uint64_t seen_ts[4];
static unsigned int seen_pad1[4];
static int nr_seen;
static uint64_t seen_records[RB_REC_MAX];
static char seen_own_clock[RB_EXAMPLE_LEN];

static void record_ts(void *arg, const struct rb_event *e)
{
	if (nr_seen < 4) {
		seen_pad1[nr_seen] = e->pos.pad1;
		seen_ts[nr_seen++] = e->ts;
	}
}

/*
 * Feed @n sub-buffers (@ends: where each one's data ends, @stamps: its
 * header's time stamp) to one input, with the rules over every event in
 * @g if given.
 */
static int feed_pages(unsigned char **pages, const unsigned int *ends, const uint64_t *stamps,
		      int n, struct rb_generic *g)
{
	static const struct rb_subbuf_layout layout = { .psize = 4096, .long_size = 8 };
	char header[4096], format[4096], err[256];
	struct rb_input in = { .expect_clock = -1, .on_event = record_ts, .g = g };
	struct tep_handle *tep = tep_alloc();
	struct kbuffer *kbuf = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	struct rb_settings set;
	size_t hl, fl;
	FILE *f;
	int ret = 0;

	for (int i = 0; i < n; i++) {
		uint64_t commit = ends[i] - 16;

		memcpy(pages[i], &stamps[i], 8);
		memcpy(pages[i] + 8, &commit, 8);
	}
	f = fopen(RB_TEST_DATA "/header_page", "r");
	hl = f ? fread(header, 1, sizeof(header), f) : 0;
	if (f)
		fclose(f);
	f = fopen(RB_TEST_DATA "/rbstress_event.format", "r");
	fl = f ? fread(format, 1, sizeof(format), f) : 0;
	if (f)
		fclose(f);
	tep_set_long_size(tep, 8);
	if (!hl || !fl || tep_parse_header_page(tep, header, hl, 8) < 0 ||
	    tep_parse_event(tep, format, fl, "rbstress") != 0 ||
	    rb_format_init(&in.fmt, tep, err, sizeof(err)) < 0)
		return -2;
	rb_settings_default(&set);
	in.v = rb_verifier_new(&set);
	nr_seen = 0;
	for (int i = 0; i < n && !ret; i++)
		ret = rb_subbuf_feed(&in, kbuf, pages[i], &layout, 0, i);
	memcpy(seen_records, in.v->records, sizeof(seen_records));
	snprintf(seen_own_clock, sizeof(seen_own_clock), "%s",
		 in.v->rules[RB_RULE_OWN_CLOCK].nr_examples ?
		 in.v->rules[RB_RULE_OWN_CLOCK].examples[0] : "");
	rb_verifier_free(in.v);
	kbuffer_free(kbuf);
	tep_free(tep);
	return ret;
}

static int feed_page(unsigned char *page, unsigned int end)
{
	uint64_t stamp = 1000;

	return feed_pages(&page, &end, &stamp, 1, NULL);
}

/* rb_event_discard() turned a delta 0 into 1: the writer's time did not move. */
TEST(discarded_event_delta_1_stands_for_0)
{
	static unsigned char page[4096];
	unsigned int off = 16;

	off = put_event(page, off, 0, 1001, 1);		/* 1000 */
	off = put_discard(page, off, 1);		/* was 0 */
	off = put_event(page, off, 100, 1101, 2);	/* 1100 */
	off = put_discard(page, off, 40);		/* a real delta: counts */
	off = put_event(page, off, 10, 1151, 3);	/* 1150 */
	EXPECT_EQ(0, feed_page(page, off), "the page parses");
	EXPECT_EQ(3, nr_seen, "three events");
	EXPECT_EQ(1000, seen_ts[0], "first event at the page's time stamp");
	EXPECT_EQ(1100, seen_ts[1], "the delta 1 of the discard is not time");
	EXPECT_EQ(1150, seen_ts[2], "a discarded event's real delta is");
	EXPECT_EQ(0, seen_pad1[0], "no padding of delta 1 before the first event");
	EXPECT_EQ(1, seen_pad1[1], "one before the second");
	EXPECT_EQ(1, seen_pad1[2], "and the third: a real delta is not one");
}

/*
 * A discarded event's real delta 1 is read as none too (finding (d)): the
 * events after it come out one unit early, and a violation among them says
 * what it follows, so that the finding's signature can tell it.
 */
TEST(violation_after_a_padding_of_delta_1_says_so)
{
	static unsigned char page[4096];
	unsigned int off = 16;

	off = put_event(page, off, 0, 1001, 1);		/* 1000 */
	off = put_discard(page, off, 1);
	off = put_event(page, off, 100, 1050, 2);	/* 1100, after its own clock read */
	EXPECT_EQ(0, feed_page(page, off), "the page parses");
	EXPECT_STR_CONTAINS(seen_own_clock, "ts=1100 ", "the event after the padding FAILs own-clock");
	EXPECT_STR_CONTAINS(seen_own_clock, ", after 1 padding of delta 1",
			    "its example names the padding before it");
	memset(page, 0, sizeof(page));
	off = put_event(page, 16, 0, 1001, 1);
	off = put_event(page, off, 100, 1050, 2);
	EXPECT_EQ(0, feed_page(page, off), "the page parses");
	EXPECT_STR_CONTAINS(seen_own_clock, "ts=1100 ", "the same event without the padding FAILs");
	EXPECT_TRUE(!strstr(seen_own_clock, "padding"), "its example names no padding");
}

/*
 * A reader that copies a partly read page out stamps the copy with its
 * read_stamp, which took the padding of delta 1 after the last event it
 * read as no time: the copy's events say they come after it too.
 */
TEST(violation_in_the_copy_of_a_partly_read_page_names_the_padding_before_it)
{
	static unsigned char p1[4096], p2[4096];
	unsigned char *pages[2] = { p1, p2 };
	unsigned int ends[2];
	uint64_t stamps[2] = { 1000, 1000 };

	ends[0] = put_event(p1, 16, 0, 1001, 1);		/* 1000 */
	ends[0] = put_discard(p1, ends[0], 1);
	ends[1] = put_event(p2, 16, 0, 990, 2);			/* 1000, after its clock */
	EXPECT_EQ(0, feed_pages(pages, ends, stamps, 2, NULL), "the pages parse");
	EXPECT_EQ(1, seen_pad1[1], "the copy's event counts the padding before it");
	EXPECT_STR_CONTAINS(seen_own_clock, ", after 1 padding of delta 1", "and its example says so");
	/* the padding before the last event read counts as well */
	ends[0] = put_event(p1, 16, 0, 1001, 1);		/* 1000 */
	ends[0] = put_discard(p1, ends[0], 1);
	ends[0] = put_event(p1, ends[0], 0, 1001, 3);		/* 1000 */
	ends[1] = put_event(p2, 16, 0, 990, 2);
	EXPECT_EQ(0, feed_pages(pages, ends, stamps, 2, NULL), "the pages parse");
	EXPECT_EQ(1, seen_pad1[2], "the copy's event counts the padding before the last one read");
	stamps[1] = 1005;
	ends[1] = put_event(p2, 16, 0, 990, 2);			/* 1005 */
	EXPECT_EQ(0, feed_pages(pages, ends, stamps, 2, NULL), "the pages parse");
	EXPECT_EQ(0, seen_pad1[2], "a sub-buffer stamped otherwise is not such a copy");
	EXPECT_TRUE(!strstr(seen_own_clock, "padding"), "its example names no padding");
}

/*
 * A sub-buffer's time stamp is the base of its first event: one before the
 * last event of the sub-buffer before it (a partly read page copied out
 * with a stale read_stamp: 0004) FAILs subbuf-stamp, even when the first
 * event's own delta brings it back in order.
 */
TEST(subbuf_stamp_before_the_last_event_before_it_fails)
{
	static unsigned char p1[4096], p2[4096];
	unsigned char *pages[2] = { p1, p2 };
	unsigned int ends[2];
	uint64_t stamps[2] = { 1000, 1100 };
	struct rb_generic g;

	ends[0] = put_event(p1, 16, 0, 1001, 1);
	ends[0] = put_event(p1, ends[0], 150, 1151, 2);		/* 1150 */
	ends[1] = put_event(p2, 16, 60, 1161, 3);		/* 1100 + 60 */
	rb_generic_init(&g, "global");
	EXPECT_EQ(0, feed_pages(pages, ends, stamps, 2, &g), "the pages parse");
	rb_generic_finish(&g);
	EXPECT_EQ(1, g.rules[RB_GEN_SUBBUF].checked, "the second sub-buffer is checked");
	EXPECT_EQ(RB_FAIL, rb_generic_rule_verdict(&g, RB_GEN_SUBBUF), "its stamp is 50 before 1150");
	EXPECT_EQ(RB_PASS, rb_generic_rule_verdict(&g, RB_GEN_ORDER), "its event is not");
	EXPECT_STR_CONTAINS(g.rules[RB_GEN_SUBBUF].examples[0],
			    "the sub-buffer's time stamp 1100 is 50 ns before the last event before it",
			    "the example says by how much");
	stamps[1] = 1150;
	ends[1] = put_event(p2, 16, 10, 1161, 3);
	rb_generic_init(&g, "global");
	EXPECT_EQ(0, feed_pages(pages, ends, stamps, 2, &g), "the pages parse");
	rb_generic_finish(&g);
	EXPECT_EQ(RB_PASS, rb_generic_rule_verdict(&g, RB_GEN_SUBBUF), "a stamp equal to it is not");
	rb_generic_init(&g, "global");
	EXPECT_EQ(0, feed_pages(pages, ends, stamps, 1, &g), "one page parses");
	rb_generic_finish(&g);
	EXPECT_EQ(RB_SKIP, rb_generic_rule_verdict(&g, RB_GEN_SUBBUF), "one sub-buffer: nothing to judge");
}

/* A time record: type 30 (time extend, a delta) or 31 (absolute time stamp). */
static unsigned int put_time(unsigned char *page, unsigned int off, unsigned int type,
			     uint64_t t)
{
	uint32_t h = ((uint32_t)(t & ((1u << 27) - 1)) << 5) | type, hi = t >> 27;

	memcpy(page + off, &h, 4);
	memcpy(page + off + 4, &hi, 4);
	return off + 8;
}

static unsigned int put_abs(unsigned char *page, unsigned int off, uint64_t ts)
{
	return put_time(page, off, 31, ts);
}

/* After an absolute time stamp, the 1s of earlier discards no longer count. */
TEST(absolute_time_stamp_ends_the_discard_correction)
{
	static unsigned char page[4096];
	unsigned int off = 16;

	off = put_event(page, off, 0, 1001, 1);		/* 1000 */
	off = put_discard(page, off, 1);		/* was 0 */
	off = put_abs(page, off, 1200);
	off = put_event(page, off, 0, 1201, 2);		/* 1200, absolute */
	off = put_event(page, off, 5, 1206, 3);		/* 1205 */
	EXPECT_EQ(0, feed_page(page, off), "the page parses");
	EXPECT_EQ(1200, seen_ts[1], "the absolute stamp is taken as it is");
	EXPECT_EQ(1205, seen_ts[2], "and what follows it");
}

/*
 * The records that show a time stamp path are counted as the sub-buffer is
 * walked: the padding rb_reset_tail() leaves at the page's end is not a
 * discarded event, a padding before it is.
 */
TEST(path_records_of_a_subbuf_are_counted)
{
	static unsigned char page[4096];
	unsigned int off = 16;
	uint32_t h = (1 << 5) | 29, len;

	off = put_event(page, off, 0, 1001, 1);		/* 1000 */
	off = put_discard(page, off, 1);		/* discarded, left as padding */
	off = put_time(page, off, 30, 1ULL << 28);	/* a delta too large */
	off = put_event(page, off, 0, (1ULL << 28) + 1001, 2);
	off = put_abs(page, off, (1ULL << 28) + 2000);	/* a full time stamp */
	off = put_event(page, off, 0, (1ULL << 28) + 2001, 3);
	len = 4096 - off - 4;				/* to the page's end */
	memcpy(page + off, &h, 4);
	memcpy(page + off + 4, &len, 4);
	EXPECT_EQ(0, feed_page(page, 4096), "the page parses");
	EXPECT_EQ(3, nr_seen, "three events");
	EXPECT_EQ((1ULL << 28) + 1000, seen_ts[1], "the extend's delta is added");
	EXPECT_EQ(1, seen_records[RB_REC_SUBBUF], "one sub-buffer with data");
	EXPECT_EQ(1, seen_records[RB_REC_EXTEND], "one time extend");
	EXPECT_EQ(1, seen_records[RB_REC_ABSOLUTE], "one full time stamp");
	EXPECT_EQ(1, seen_records[RB_REC_DISCARDED],
		  "one discarded event; the padding to the page's end is not one");
}

/*
 * A partial read copies the reader page's events into a page of its own:
 * rb_reset_tail()'s padding keeps its length and ends the data, short of
 * the page's end.  It is still not a discarded event.
 */
TEST(copied_tail_padding_is_not_a_discarded_event)
{
	static unsigned char page[4096];
	unsigned int off = 16;
	uint32_t h = (1 << 5) | 29, len = 28;

	off = put_event(page, off, 0, 1001, 1);
	memcpy(page + off, &h, 4);
	memcpy(page + off + 4, &len, 4);
	EXPECT_EQ(0, feed_page(page, off + 32), "the page parses");
	EXPECT_EQ(0, seen_records[RB_REC_DISCARDED], "a padding that ends the data is the tail's");
}

/*
 * The last record a padding: rb_reset_tail()'s has delta 1; with any other
 * delta it is a discarded event that was left last (the events behind it
 * were removed), and of delta 1 it may be either.
 */
TEST(last_padding_with_a_real_delta_is_a_discarded_event)
{
	static unsigned char page[4096];
	unsigned int off = 16, end;

	off = put_event(page, off, 0, 1001, 1);
	end = put_discard(page, off, 40);
	EXPECT_EQ(0, feed_page(page, end), "the page parses");
	EXPECT_EQ(1, seen_records[RB_REC_DISCARDED], "a last padding of delta 40 is a discard");
	EXPECT_EQ(0, seen_records[RB_REC_END_PADDING], "and no end padding");

	memset(page, 0, sizeof(page));
	off = put_event(page, 16, 0, 1001, 1);
	end = put_discard(page, off, 1);
	EXPECT_EQ(0, feed_page(page, end), "the page parses");
	EXPECT_EQ(0, seen_records[RB_REC_DISCARDED], "a last padding of delta 1 is not sure");
	EXPECT_EQ(1, seen_records[RB_REC_END_PADDING], "it is counted as may-be");
}

TEST(no_nested_event_is_skip_or_fail_when_required)
{
	struct rb_settings set;
	struct rb_verifier *v = verifier();
	struct rb_event e = ev(RB_CTX_NORMAL, 1, 0, 1, 1, 1000, 1001);

	feed(v, &e, 1);
	EXPECT_EQ(RB_SKIP, rb_rule_verdict(v, RB_RULE_NESTED_DELTA), "nothing nested: SKIP");
	EXPECT_EQ(RB_PASS, rb_verdict(v), "the other rules still pass");
	rb_verifier_free(v);

	rb_settings_default(&set);
	set.require_nested = true;
	v = rb_verifier_new(&set);
	feed(v, &e, 1);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_NESTED_DELTA), "nothing nested, required");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_NESTED_DELTA].examples[0], "nothing was tested",
			    "the example says so");
	rb_verifier_free(v);
}

static const char stats_with_counters[] =
	"entries: 0\noverrun: 0\nread events: 7\n"
	"ts path first_subbuf: 3\nts path read_failed: 0\n"
	"ts path before_stamp!=write_stamp: 5\nts path time_extend: 1\n"
	"ts path absolute: 0\nts path A-C: 2\nts path A-C,C-F_delta_0: 1\n"
	"ts path discard_removed: 4\nts path discard_padding: 6\n";

TEST(path_counters_are_parsed_from_stats)
{
	uint64_t v[RB_TS_PATH_MAX];

	unsigned int of_6_1 = 1u << RB_TS_FIRST_SUBBUF | 1u << RB_TS_READ_FAILED |
			      1u << RB_TS_BEFORE_AFTER | 1u << RB_TS_EXTEND | 1u << RB_TS_ABSOLUTE |
			      1u << RB_TS_A_TO_C | 1u << RB_TS_A_TO_C_LOST |
			      1u << RB_TS_DISCARD_REMOVED | 1u << RB_TS_DISCARD_PADDING;

	EXPECT_EQ(of_6_1, rb_counters_parse(stats_with_counters, v), "the nine of 6.1 found, and no other");
	EXPECT_EQ(2, v[RB_TS_A_TO_C], "A-C");
	EXPECT_EQ(1, v[RB_TS_A_TO_C_LOST], "A-C,C-F_delta_0, not confused with A-C");
	EXPECT_EQ(5, v[RB_TS_BEFORE_AFTER], "before_stamp!=write_stamp");
	EXPECT_EQ(4, v[RB_TS_DISCARD_REMOVED], "discard_removed");
	EXPECT_EQ(6, v[RB_TS_DISCARD_PADDING], "discard_padding, not confused with it");
	EXPECT_EQ(0, rb_counters_parse("entries: 0\nread events: 7\n", v),
		  "a kernel without the series has none");
}

TEST(stats_values_are_read_by_their_whole_key)
{
	static const char stats[] = "entries: 3\noverrun: 2\ncommit overrun: 5\n"
				    "dropped events: 0\nread events: 9\n";

	EXPECT_EQ(3, rb_stats_value(stats, "entries"), "entries");
	EXPECT_EQ(2, rb_stats_value(stats, "overrun"), "overrun, not commit overrun");
	EXPECT_EQ(5, rb_stats_value(stats, "commit overrun"), "commit overrun");
	EXPECT_EQ(0, rb_stats_value(stats, "events"), "no line is 'events': 0, not read events");
	EXPECT_EQ(0, rb_stats_value(stats, "bytes"), "a key the text lacks: 0");
}

/* 6.12's series: no read_failed, and the A-C outcomes named by where. */
static const char stats_6_12[] =
	"entries: 0\nread events: 7\n"
	"ts path first_subbuf: 3\nts path before_stamp!=write_stamp: 5\n"
	"ts path time_extend: 1\nts path absolute: 0\nts path B-C: 2\n"
	"ts path A-B_delta_0: 8\nts path C-F_delta_0: 9\n"
	"ts path discard_removed: 4\nts path discard_padding: 6\n";

TEST(path_counters_of_6_12_are_parsed_from_stats)
{
	struct rb_path_counters k = { .nr_cpus = 1 };
	unsigned int have = rb_counters_parse(stats_6_12, k.v[0]);

	EXPECT_EQ(0, have & (1u << RB_TS_READ_FAILED), "no read_failed on 6.12");
	EXPECT_EQ(0, have & (1u << RB_TS_A_TO_C | 1u << RB_TS_A_TO_C_LOST),
		  "6.1's A-C names are not 6.12's");
	EXPECT_EQ(2, k.v[0][RB_TS_B_TO_C], "B-C");
	EXPECT_EQ(8, k.v[0][RB_TS_A_TO_B_LOST], "A-B_delta_0");
	EXPECT_EQ(9, k.v[0][RB_TS_C_TO_F_LOST], "C-F_delta_0, not confused with A-B_delta_0");
	EXPECT_EQ(19, rb_counters_sum(&k, 0, RB_TS_A_TO_C_PATHS),
		  "the A-C paths of 6.12 add up as 6.1's do");
}

/* One event interrupted before C on cpu0 (see the test above this one). */
static struct rb_verifier *one_before_c(void)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		ev(RB_CTX_IRQ, 1, 0, 1, 1, 1000, 1002),
		ev(RB_CTX_NORMAL, 1, 0, 2, 2, 1000, 1500),
	};

	for (int i = 0; i < 2; i++)
		rb_verify_event(v, &e[i]);
	return v;
}

TEST(kernel_a_to_c_count_covered_by_seen_events_passes)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v = one_before_c();

	k.v[0][RB_TS_A_TO_C_LOST] = 1;
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_COUNTERS), "1 counted, 1 seen");
	rb_verifier_free(v);
}

TEST(kernel_a_to_c_count_above_seen_events_fails)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v = one_before_c();

	k.v[0][RB_TS_A_TO_C] = 2;
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_COUNTERS), "2 counted, 1 seen");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_COUNTERS].examples[0], "2 times but only 1",
			    "the example gives both counts");
	rb_verifier_free(v);
}

/*
 * The deltas taken at F, under the counter clock (no clock field: every
 * read moves).  The normal event was interrupted before C by the irq and
 * carries its stamp (delta 0), or a later one (@ts).
 */
static struct rb_verifier *one_before_c_counter(uint64_t ts)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[2] = {
		ev(RB_CTX_IRQ, 1, 0, 1, 1, 1000, 0),
		ev(RB_CTX_NORMAL, 1, 0, 2, 2, ts, 0),
	};

	for (int i = 0; i < 2; i++) {
		e[i].clock_id = RB_CLOCK_NONE;
		rb_verify_event(v, &e[i]);
	}
	return v;
}

TEST(delta_0_where_f_kept_the_delta_fails_under_the_counter_clock)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v = one_before_c_counter(1000);

	/* the kernel says F's check held (delta kept), the stamp says delta 0 */
	k.v[0][RB_TS_A_TO_C] = 1;
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_COUNTERS), "1 delta 0 seen, 0 given at F");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_COUNTERS].examples[0],
			    "gave delta 0 at F only 0 times (and kept the delta 1 times)",
			    "the example gives the kernel's two counts");
	rb_verifier_free(v);
}

TEST(delta_0_given_at_f_passes_under_the_counter_clock)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v = one_before_c_counter(1000);

	k.v[0][RB_TS_C_TO_F_LOST] = 1;
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_COUNTERS), "the documented loss");
	rb_verifier_free(v);
}

TEST(a_kept_delta_of_6_12_on_a_delta_0_stamp_fails_under_the_counter_clock)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v = one_before_c_counter(1000);

	k.v[0][RB_TS_B_TO_C] = 1;
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_COUNTERS), "6.12's B-C is the kept delta");
	rb_verifier_free(v);
}

TEST(a_kept_delta_with_no_positive_delta_seen_fails_under_the_counter_clock)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v = one_before_c_counter(1000);

	/* two paths counted, one event seen: caught by the A-C count too */
	k.v[0][RB_TS_A_TO_C_LOST] = 1;
	k.v[0][RB_TS_A_TO_C] = 1;
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_COUNTERS), "kept 1, no positive delta seen");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_COUNTERS].examples[1],
			    "kept the delta at F 1 times, but only 0 events",
			    "the kept-delta side of the ledger");
	rb_verifier_free(v);
}

TEST(a_kept_delta_above_0_passes_under_the_counter_clock)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v = one_before_c_counter(1500);

	k.v[0][RB_TS_A_TO_C] = 1;
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_COUNTERS), "delta kept, above 0");
	rb_verifier_free(v);
}

TEST(delta_0_where_f_kept_the_delta_is_not_judged_under_another_clock)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v = one_before_c();

	/* the global clock: the delta kept may honestly be 0 */
	k.v[0][RB_TS_A_TO_C] = 1;
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_COUNTERS), "two equal global reads");
	rb_verifier_free(v);
}

/*
 * The seed's promise: one_before_c() has one interruption: the interrupted
 * normal event (its own path, and the full stamp it forces on the event
 * after it) and the irq that landed in it: at most three nested-event slow
 * paths.  A fourth means a free event left the fast path.
 */
TEST(slow_paths_within_the_events_involved_in_interruptions_pass)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v = one_before_c();

	k.v[0][RB_TS_BEFORE_AFTER] = 2;
	k.v[0][RB_TS_A_TO_C_LOST] = 1;
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_COUNTERS), "3 slow, 3 allowed");
	EXPECT_EQ(0, v->free_slow, "no free event left the fast path");
	rb_verifier_free(v);
}

TEST(kernel_6_12_a_to_c_paths_above_seen_events_fail)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v = one_before_c();

	/* One interruption seen; 6.12 counted two, on different paths. */
	k.v[0][RB_TS_B_TO_C] = 1;
	k.v[0][RB_TS_C_TO_F_LOST] = 1;
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_COUNTERS), "2 counted, 1 seen");
	rb_verifier_free(v);
}

TEST(slow_paths_beyond_the_events_involved_fail_the_fast_path_promise)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v = one_before_c();

	k.v[0][RB_TS_BEFORE_AFTER] = 3;
	k.v[0][RB_TS_A_TO_C_LOST] = 1;
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_COUNTERS), "4 slow, 3 allowed");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_COUNTERS].examples[0],
			    "at least 1 events that interrupted nobody's time update left the fast path",
			    "the example says how many left it");
	EXPECT_EQ(1, v->free_slow, "counted for the summary");
	rb_verifier_free(v);
}

/*
 * No-overwrite mode, buffer full: every refused reservation was counted at
 * A (before_stamp != write_stamp, since the last refused one set B) and
 * never written.  The promise cannot be judged on that CPU.
 */
TEST(a_cpu_whose_reservations_were_dropped_is_not_judged_on_the_fast_path)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v = one_before_c();

	k.v[0][RB_TS_BEFORE_AFTER] = 100000;
	k.dropped[0] = 99990;
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_COUNTERS), "dropped reservations explain it");
	rb_verifier_free(v);
	EXPECT_EQ(7, rb_counters_dropped("entries: 0\ndropped events: 7\nread events: 1\n"),
		  "dropped events parsed from stats");
}

/* A discarded event took its path but is never seen: the filter's gaps count. */
TEST(events_the_filter_discarded_count_as_involved)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_event e[2] = {
		ev(RB_CTX_NORMAL, 7, 0, 1, 1, 1000, 1001),
		ev(RB_CTX_NORMAL, 9, 0, 2, 2, 1010, 1011),
	};
	struct rb_verifier *v = filtered_verifier(7);

	for (int i = 0; i < 2; i++)	/* seq 8 was discarded */
		rb_verify_event(v, &e[i]);
	k.v[0][RB_TS_A_TO_C] = 1;
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_COUNTERS),
		  "1 A-C counted, 0 seen, 1 discarded unseen");
	rb_verifier_free(v);

	v = verifier();
	e[1].seq = 8;
	for (int i = 0; i < 2; i++)
		rb_verify_event(v, &e[i]);
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_COUNTERS), "without a discard it fails");
	rb_verifier_free(v);
}

/* One sub-buffer walked on cpu0 with these records (the rest 0). */
static void walked(struct rb_verifier *v, uint64_t extends, uint64_t full,
		   uint64_t discarded, uint64_t end_padding)
{
	uint64_t n[RB_REC_MAX] = {
		[RB_REC_SUBBUF] = 1, [RB_REC_EXTEND] = extends, [RB_REC_ABSOLUTE] = full,
		[RB_REC_DISCARDED] = discarded, [RB_REC_END_PADDING] = end_padding,
	};

	rb_verify_records(v, 0, n);
}

/*
 * The exact ledger: every event counted on a stamped path (time_extend,
 * before_stamp!=write_stamp, read_failed, absolute) wrote one time stamp
 * record, and no other event did.
 */
TEST(stamped_paths_equal_to_the_stamp_records_pass)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1, .untouched = { true } };
	struct rb_verifier *v = one_before_c();

	k.v[0][RB_TS_EXTEND] = 1;
	k.v[0][RB_TS_BEFORE_AFTER] = 2;
	walked(v, 2, 1, 0, 0);	/* one forced stamp became an extend at A-C */
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_COUNTERS), "3 counted, 3 records");
	rb_verifier_free(v);
}

TEST(stamped_paths_off_the_stamp_records_fail)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1, .untouched = { true } };
	struct rb_verifier *v = one_before_c();

	k.v[0][RB_TS_BEFORE_AFTER] = 2;
	walked(v, 0, 1, 0, 0);
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_COUNTERS), "2 counted, 1 record");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_COUNTERS].examples[0],
			    "stamped 2 events with a time extend or a full stamp",
			    "the example gives the count");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_COUNTERS].examples[0], "hold 1 such records",
			    "and the records");
	rb_verifier_free(v);

	/* A removed discard took its record with it: one more is allowed. */
	v = one_before_c();
	k.v[0][RB_TS_DISCARD_REMOVED] = 1;
	walked(v, 0, 1, 0, 0);
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_COUNTERS), "2 counted, 1 record, 1 removed");
	rb_verifier_free(v);
	v = one_before_c();
	walked(v, 0, 0, 0, 0);
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_COUNTERS), "2 counted, 0 records, 1 removed");
	rb_verifier_free(v);

	/* A record no counted event wrote fails as well. */
	v = one_before_c();
	memset(k.v, 0, sizeof(k.v));
	walked(v, 1, 0, 0, 0);
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_COUNTERS), "0 counted, 1 record");
	rb_verifier_free(v);
}

/* Without a walk of the sub-buffers (libtracecmd's reader) there are no records. */
TEST(stamped_paths_are_not_compared_without_walked_subbufs)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v = one_before_c();

	k.v[0][RB_TS_EXTEND] = 5;
	k.v[0][RB_TS_DISCARD_PADDING] = 5;
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_COUNTERS), "nothing to compare with");
	rb_verifier_free(v);
}

/*
 * The counters began before the checker's baseline: the events counted
 * before it are in the sub-buffers only if nothing was read or overwritten
 * by then.  Otherwise the stamp records cannot be matched.
 */
TEST(the_ledger_needs_a_buffer_untouched_at_the_baseline)
{
	static struct rb_path_counters before = { .nr_cpus = 1 }, after = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v;

	EXPECT_EQ(true, rb_stats_untouched("entries: 5\noverrun: 0\ncommit overrun: 0\n"
					   "bytes: 80\nread events: 0\n"), "nothing read, nothing lost");
	EXPECT_EQ(false, rb_stats_untouched("entries: 5\noverrun: 0\nread events: 3\n"),
		  "3 events read");
	EXPECT_EQ(false, rb_stats_untouched("entries: 5\noverrun: 2\nread events: 0\n"),
		  "2 overwritten");
	EXPECT_EQ(false, rb_stats_untouched("entries: 5\n"), "a stats file without the lines");

	/* Untouched at the baseline: the counts since the start are kept whole. */
	before.v[0][RB_TS_BEFORE_AFTER] = 4;
	before.untouched[0] = true;
	after.v[0][RB_TS_BEFORE_AFTER] = 10;
	rb_counters_sub(&after, &before);
	EXPECT_EQ(10, after.v[0][RB_TS_BEFORE_AFTER], "nothing subtracted");
	EXPECT_EQ(true, after.untouched[0], "and the difference is marked");

	/* Read before the baseline: subtracted, and the ledger is not applied. */
	before.untouched[0] = false;
	after.untouched[0] = false;
	after.v[0][RB_TS_BEFORE_AFTER] = 6;
	rb_counters_sub(&after, &before);
	EXPECT_EQ(2, after.v[0][RB_TS_BEFORE_AFTER], "the baseline subtracted");
	v = one_before_c();
	after.v[0][RB_TS_A_TO_C_LOST] = 1;
	walked(v, 0, 0, 0, 0);
	rb_verify_counters(v, &after);
	rb_verify_finish(v);
	EXPECT_EQ(RB_PASS, rb_rule_verdict(v, RB_RULE_COUNTERS),
		  "2 stamped, 0 records: not compared when the baseline was touched");
	rb_verifier_free(v);
}

/*
 * discard_padding: the paddings before other records or with a real delta
 * are sure, a last one of delta 1 may be rb_reset_tail()'s.
 */
TEST(discard_padding_count_between_sure_and_may_be_paddings)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1, .untouched = { true } };
	const uint64_t counts[] = { 0, 1, 2, 3 };
	const enum rb_verdict want[] = { RB_FAIL, RB_PASS, RB_PASS, RB_FAIL };

	for (int i = 0; i < 4; i++) {
		struct rb_verifier *v = one_before_c();

		k.v[0][RB_TS_DISCARD_PADDING] = counts[i];
		walked(v, 0, 0, 1, 1);
		rb_verify_counters(v, &k);
		rb_verify_finish(v);
		EXPECT_EQ(want[i], rb_rule_verdict(v, RB_RULE_COUNTERS),
			  "1 sure padding, 1 may-be: 1 or 2 counted pass, 0 or 3 fail");
		if (want[i] == RB_FAIL)
			EXPECT_STR_CONTAINS(v->rules[RB_RULE_COUNTERS].examples[0],
					    "hold 1 such paddings (and 1 at a sub-buffer's end",
					    "the example gives both");
		rb_verifier_free(v);
	}
}

TEST(kernel_a_to_c_count_on_a_cpu_that_lost_events_is_not_checked)
{
	static struct rb_path_counters k = { .have = ~0u, .nr_cpus = 1 };
	struct rb_verifier *v = one_before_c();

	k.v[0][RB_TS_A_TO_C] = 2;
	rb_verify_lost(v, 0, 5);
	rb_verify_counters(v, &k);
	rb_verify_finish(v);
	EXPECT_EQ(RB_SKIP, rb_rule_verdict(v, RB_RULE_COUNTERS), "unseen events may explain it");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_COUNTERS].skip_reason, "lost", "and it says why");
	rb_verifier_free(v);
}

TEST(path_counters_that_went_down_were_reset_and_are_not_checked)
{
	static struct rb_path_counters before, after;
	struct rb_verifier *v = verifier();
	struct rb_event e[3];

	before.have = after.have = ~0u;
	before.nr_cpus = after.nr_cpus = 1;
	before.v[0][RB_TS_A_TO_C] = 500;
	after.v[0][RB_TS_A_TO_C] = 20;	/* an rmmod reset the buffer */
	rb_counters_sub(&after, &before);
	EXPECT_EQ(1, after.was_reset[0], "the CPU is marked reset");
	EXPECT_EQ(20, after.v[0][RB_TS_A_TO_C], "it keeps the counts since the reset");
	for (int i = 0; i < clean_stream(e); i++)
		rb_verify_event(v, &e[i]);
	rb_verify_counters(v, &after);
	rb_verify_finish(v);
	EXPECT_EQ(RB_SKIP, rb_rule_verdict(v, RB_RULE_COUNTERS), "no underflowed comparison");
	rb_verifier_free(v);
}

TEST(counters_rule_skips_without_kernel_counters)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[3];

	feed(v, e, clean_stream(e));
	EXPECT_EQ(RB_SKIP, rb_rule_verdict(v, RB_RULE_COUNTERS), "reported as skipped, not passed");
	rb_verifier_free(v);
}

TEST(bad_cpu_is_rejected)
{
	struct rb_verifier *v = verifier();
	struct rb_event e = ev(RB_CTX_NORMAL, 1, 0, 1, 1, 1000, 1001);

	e.cpu = RB_MAX_CPUS;
	EXPECT_EQ(-1, rb_verify_event(v, &e), "cpu out of range");
	e.cpu = 0;
	e.ctx = RB_CTX_MAX;
	EXPECT_EQ(-1, rb_verify_event(v, &e), "context out of range");
	rb_verifier_free(v);
}

TEST(only_first_examples_are_kept)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[10];

	for (int i = 0; i < 10; i++)
		e[i] = ev(RB_CTX_NORMAL, i + 1, i, i + 1, i + 1, 1000 - i, 2000);
	feed(v, e, 10);
	EXPECT_EQ(9, v->rules[RB_RULE_MONOTONIC].violations, "every violation counted");
	EXPECT_EQ(RB_MAX_EXAMPLES, v->rules[RB_RULE_MONOTONIC].nr_examples, "a few kept in full");
	rb_verifier_free(v);
}

/* T > S > I > N, each opened inside the one before. */
TEST(four_deep_stack_is_counted_and_every_pair_checked)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[4] = {
		ev(RB_CTX_NORMAL, 1, 0, 1, 4, 1000, 1010),
		ev(RB_CTX_SOFTIRQ, 1, 1, 2, 4, 1100, 1110),
		ev(RB_CTX_IRQ, 1, 2, 3, 4, 1200, 1210),
		ev(RB_CTX_NMI, 1, 3, 4, 4, 1300, 1310),
	};

	e[1].open_mask = 0x1;
	e[2].open_mask = 0x3;
	e[3].open_mask = 0x7;
	e[1].depth = 1; e[2].depth = 2; e[3].depth = 3;
	feed(v, e, 4);
	EXPECT_EQ(RB_PASS, rb_verdict(v), "a correctly stamped four-deep stack");
	EXPECT_EQ(1, v->four_deep, "one four-deep stack");
	EXPECT_EQ(4, v->max_depth + 1, "deepest nesting 4");
	EXPECT_EQ(6, v->rules[RB_RULE_NESTED_DELTA].checked, "every outer/inner pair checked");
	EXPECT_EQ(1, v->pairs[RB_CTX_NORMAL][RB_CTX_NMI].count, "nmi in normal");
	EXPECT_EQ(1, v->pairs[RB_CTX_IRQ][RB_CTX_NMI].count, "nmi in irq");
	rb_verifier_free(v);
}

TEST(nmi_with_delta_zero_deep_in_a_stack_fails)
{
	struct rb_verifier *v = verifier();
	struct rb_event e[3] = {
		ev(RB_CTX_NORMAL, 1, 0, 1, 3, 1000, 1010),
		ev(RB_CTX_IRQ, 1, 1, 2, 3, 1200, 1210),
		ev(RB_CTX_NMI, 1, 2, 3, 3, 1200, 1310),
	};

	feed(v, e, 3);
	EXPECT_EQ(RB_FAIL, rb_rule_verdict(v, RB_RULE_NESTED_DELTA), "nmi stamped as the irq it interrupted");
	EXPECT_STR_CONTAINS(v->rules[RB_RULE_NESTED_DELTA].examples[0], "nmi#1",
			    "the example names the NMI event");
	rb_verifier_free(v);
}

TEST(report_marks_a_missing_nmi_row_as_skip)
{
	struct rb_input in = { .expect_clock = -1 };
	struct rb_event e[3];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	in.v = verifier();
	feed(in.v, e, clean_stream(e));
	rb_report_text(f, &in, "test");
	fclose(f);
	EXPECT_STR_CONTAINS(buf, "SKIP: no NMI event was recorded", "the NMI row is SKIP, not PASS");
	free(buf);
	rb_verifier_free(in.v);
}

/* An input whose nested IRQ event has delta 0: nested-delta FAILs. */
static void zero_delta_input(struct rb_input *in)
{
	struct rb_event e[3];

	*in = (struct rb_input){ .expect_clock = -1, .v = verifier() };
	clean_stream(e);
	e[1].ts = e[0].ts;
	feed(in->v, e, 3);
}

static char *report(void (*fn)(FILE *, const struct rb_input *, const char *),
		    struct rb_input *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, in, "test");
	fclose(f);
	return buf;
}

TEST(ktap_report_has_a_test_per_rule_and_a_subtest_per_cpu)
{
	struct rb_input in;
	char *buf;

	zero_delta_input(&in);
	buf = report(rb_report_ktap, &in);
	EXPECT_STR_CONTAINS(buf, "KTAP version 1\n", "the header");
	EXPECT_STR_CONTAINS(buf, "1..6\n", "the plan: six rules");
	EXPECT_STR_CONTAINS(buf, "  # Subtest: nested-delta\n  1..1\n  not ok 1 cpu0", "a failing CPU subtest");
	EXPECT_STR_CONTAINS(buf, "not ok 2 nested-delta", "the failing rule");
	EXPECT_STR_CONTAINS(buf, "ok 6 counters # SKIP", "a skipped rule says SKIP");
	EXPECT_STR_CONTAINS(buf, "  # cpu0: irq#1 reserved inside", "the example as diagnostics");
	free(buf);
	rb_verifier_free(in.v);
}

TEST(json_report_carries_verdict_pairs_and_examples)
{
	struct rb_input in;
	struct rb_event e[3];
	char *buf;

	zero_delta_input(&in);
	buf = report(rb_report_json, &in);
	EXPECT_STR_CONTAINS(buf, "{\"source\":\"test\",\"verdict\":\"FAIL\"", "the verdict first");
	EXPECT_STR_CONTAINS(buf, "\"rule\":\"nested-delta\",\"verdict\":\"FAIL\"", "the rule");
	EXPECT_STR_CONTAINS(buf, "\\n      outer  normal#1", "newlines in examples escaped");
	EXPECT_STR_CONTAINS(buf, "\"path_counters\":null", "no counters given");
	free(buf);
	rb_verifier_free(in.v);

	in.v = verifier();
	feed(in.v, e, clean_stream(e));
	buf = report(rb_report_json, &in);
	EXPECT_STR_CONTAINS(buf, "\"outer\":\"normal\",\"inner\":\"irq\",\"count\":1,\"min_delta_ns\":500",
			    "the nested pair with its delta");
	EXPECT_STR_CONTAINS(buf, "\"histogram\":[{\"le_ns\":511,\"count\":1}]", "its histogram bucket");
	free(buf);
	rb_verifier_free(in.v);
}

TEST(histogram_buckets_hold_their_values_within_25_percent)
{
	uint64_t vals[] = { 0, 1, 3, 4, 5, 7, 8, 100, 1000, 65535, 65536, 123456789, UINT64_MAX / 3 };

	for (unsigned int i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		unsigned int b = rb_hist_bucket(vals[i]);

		EXPECT_TRUE(b < RB_HIST_BUCKETS, "bucket in range");
		EXPECT_TRUE(rb_hist_upper(b) >= vals[i], "the bucket's upper bound holds the value");
		EXPECT_TRUE(b == 0 || rb_hist_upper(b - 1) < vals[i], "the previous bucket does not");
		EXPECT_TRUE(rb_hist_upper(b) - vals[i] <= vals[i] / 4, "at most 25% above");
	}
}

TEST(pair_median_is_the_middle_value_to_bucket_resolution)
{
	struct rb_pair_stats p = { 0 };
	uint64_t d[] = { 100, 200, 1000, 1000, 1000, 5000, 900000 };

	for (unsigned int i = 0; i < 7; i++) {
		p.hist[rb_hist_bucket(d[i])]++;
		p.count++;
		p.max_delta = d[i];
	}
	EXPECT_TRUE(rb_pair_median(&p) >= 1000 && rb_pair_median(&p) <= 1250, "median of the seven");
}

TEST(text_report_names_verdict_and_rules)
{
	struct rb_input in;
	char *buf;

	zero_delta_input(&in);
	buf = report(rb_report_text, &in);
	EXPECT_STR_CONTAINS(buf, "verdict FAIL", "the verdict line");
	EXPECT_STR_CONTAINS(buf, "nested-delta  FAIL", "the failing rule's line");
	EXPECT_STR_CONTAINS(buf, "counters      SKIP", "the skipped rule says SKIP");
	free(buf);
	rb_verifier_free(in.v);
}

TEST(names_come_from_the_event_format)
{
	EXPECT_STR_CONTAINS(rb_ctx_name(RB_CTX_IRQ), "irq", "context 2 as the format names it");
	EXPECT_TRUE(!strcmp(rb_ctx_name(RB_CTX_NMI), "nmi"), "context 3");
	EXPECT_TRUE(!strcmp(rb_clock_name(RB_CLOCK_GLOBAL), "global"), "clock 2");
	EXPECT_EQ(RB_CLOCK_UPTIME, rb_clock_from_name("uptime"), "a clock found by its name");
	EXPECT_EQ(-1, rb_clock_from_name("x86-tsc"), "a clock the module does not name");
	EXPECT_TRUE(!strcmp(rb_ctx_name(9), "ctx9"), "a context the format does not name");
}

/*
 * A capture of an older module: its format names the contexts but not the
 * clocks, and one context is an enum the kernel did not turn into its
 * value.  Those are numbered, not guessed.
 */
TEST(names_the_format_lacks_are_numbered_not_guessed)
{
	static const char old[] =
		"name: rbstress_event\nID: 300\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
		"\tfield:u8 ctx;\toffset:8;\tsize:1;\tsigned:0;\n"
		"\tfield:u8 clock_id;\toffset:9;\tsize:1;\tsigned:0;\n\n"
		"print fmt: \"ctx=%s\", __print_symbolic(REC->ctx, { 0, \"normal\" },"
		" { 2, \"irq\" }, { 3, \"nmi\" })\n";
	static const char unresolved[] =
		"name: rbstress_event\nID: 300\nformat:\n"
		"\tfield:u8 ctx;\toffset:8;\tsize:1;\tsigned:0;\n\n"
		"print fmt: \"ctx=%s\", __print_symbolic(REC->ctx, { RBS_CTX_NORMAL, \"normal\" },"
		" { RBS_CTX_SOFTIRQ, \"softirq\" })\n";

	EXPECT_EQ(0, names_from(old, sizeof(old) - 1), "an older module's format parses");
	EXPECT_TRUE(!strcmp(rb_ctx_name(RB_CTX_NORMAL), "normal"), "a context it names");
	EXPECT_TRUE(!strcmp(rb_ctx_name(RB_CTX_SOFTIRQ), "ctx1"), "a context it does not name");
	EXPECT_TRUE(!strcmp(rb_clock_name(RB_CLOCK_GLOBAL), "clock2"), "no clock names: numbered");
	EXPECT_EQ(-1, rb_clock_from_name("global"), "and not found by a name of our own");
	names_from(unresolved, sizeof(unresolved) - 1);
	EXPECT_TRUE(!strcmp(rb_ctx_name(RB_CTX_SOFTIRQ), "ctx1"),
		    "an enum the kernel did not resolve names nothing");
	names_from(fixture_format, fixture_len);	/* the tests after this one */
}

/* The rules over every event (rb_generic.c): any format, contexts from common_flags. */
static void gen_event(struct rb_generic *g, int cpu, uint64_t ts, int flags)
{
	struct rb_pos pos = { .subbuf = 0, .offset = ts };

	rb_generic_event(g, cpu, ts, flags, &pos);
}

TEST(generic_time_going_back_fails_order)
{
	static struct rb_generic g;

	rb_generic_init(&g, "global");
	gen_event(&g, 0, 1000, 0);
	gen_event(&g, 1, 500, 0);	/* another CPU: its own order */
	gen_event(&g, 0, 900, 0);
	rb_generic_finish(&g);
	EXPECT_EQ(RB_FAIL, rb_generic_rule_verdict(&g, RB_GEN_ORDER), "cpu0 went back 100 ns");
	EXPECT_EQ(1, g.rules[RB_GEN_ORDER].violations, "one violation");
	EXPECT_STR_CONTAINS(g.rules[RB_GEN_ORDER].examples[0], "is 100 ns before", "the example says by how much");
	EXPECT_EQ(RB_FAIL, rb_generic_verdict(&g), "the generic verdict fails");
}

TEST(generic_equal_stamps_fail_only_under_the_counter_clock)
{
	static struct rb_generic g;

	rb_generic_init(&g, "global");
	gen_event(&g, 0, 1000, 0);
	gen_event(&g, 0, 1000, RB_TRACE_FLAG_HARDIRQ);
	rb_generic_finish(&g);
	EXPECT_EQ(RB_PASS, rb_generic_rule_verdict(&g, RB_GEN_ORDER), "equal is in order");
	EXPECT_EQ(RB_SKIP, rb_generic_rule_verdict(&g, RB_GEN_DISTINCT), "not judged: not counter");
	EXPECT_EQ(RB_PASS, rb_generic_verdict(&g), "PASS");

	/* the pre-2020 signature: an interrupt's event with the stamp before it */
	rb_generic_init(&g, "counter");
	gen_event(&g, 0, 1000, 0);
	gen_event(&g, 0, 1000, RB_TRACE_FLAG_HARDIRQ);
	gen_event(&g, 0, 1001, 0);
	rb_generic_finish(&g);
	EXPECT_EQ(RB_FAIL, rb_generic_rule_verdict(&g, RB_GEN_DISTINCT), "counter: equal stamps");
	EXPECT_EQ(2, g.rules[RB_GEN_DISTINCT].checked, "two pairs checked");
	EXPECT_EQ(1, g.rules[RB_GEN_DISTINCT].violations, "one violation");
	EXPECT_STR_CONTAINS(g.rules[RB_GEN_DISTINCT].examples[0], "irq event has the stamp 1000 of the normal event",
			    "the example names both contexts");

	/* the seed's documented loss: the interrupted event after its interrupter */
	rb_generic_init(&g, "counter");
	gen_event(&g, 0, 1000, RB_TRACE_FLAG_NMI);
	gen_event(&g, 0, 1000, 0);
	rb_generic_finish(&g);
	EXPECT_EQ(RB_PASS, rb_generic_rule_verdict(&g, RB_GEN_DISTINCT), "lower after higher: A-C");
	EXPECT_EQ(1, g.shared_with_interrupter, "counted as the documented loss");

	/* the same context twice with one stamp: nothing explains it */
	rb_generic_init(&g, "counter");
	gen_event(&g, 0, 1000, 0);
	gen_event(&g, 0, 1000, 0);
	rb_generic_finish(&g);
	EXPECT_EQ(RB_FAIL, rb_generic_rule_verdict(&g, RB_GEN_DISTINCT), "same context, same stamp");
}

TEST(generic_contexts_come_from_common_flags_and_zero_deltas_are_counted)
{
	static struct rb_generic g;

	EXPECT_EQ(RB_CTX_NMI, rb_generic_ctx(RB_TRACE_FLAG_NMI | RB_TRACE_FLAG_HARDIRQ), "NMI wins");
	EXPECT_EQ(RB_CTX_IRQ, rb_generic_ctx(RB_TRACE_FLAG_HARDIRQ | RB_TRACE_FLAG_SOFTIRQ), "irq over softirq");
	EXPECT_EQ(RB_CTX_SOFTIRQ, rb_generic_ctx(RB_TRACE_FLAG_SOFTIRQ | 0x80), "softirq; BH off is not");
	EXPECT_EQ(RB_CTX_NORMAL, rb_generic_ctx(0x80 | 0x01), "BH and IRQs off: normal");
	rb_generic_init(&g, "global");
	gen_event(&g, 0, 1000, 0);
	gen_event(&g, 0, 1000, RB_TRACE_FLAG_NMI);	/* the pre-2020 signature */
	gen_event(&g, 0, 1010, 0);
	gen_event(&g, 0, 1020, RB_TRACE_FLAG_NMI);	/* a running stamp */
	gen_event(&g, 0, 1030, RB_TRACE_FLAG_SOFTIRQ);	/* lower after higher: not a pair */
	rb_generic_finish(&g);
	EXPECT_EQ(2, g.pairs[RB_CTX_NMI][RB_CTX_NORMAL].count, "nmi right after normal twice");
	EXPECT_EQ(1, g.pairs[RB_CTX_NMI][RB_CTX_NORMAL].zero, "once with delta 0");
	EXPECT_EQ(0, g.pairs[RB_CTX_SOFTIRQ][RB_CTX_NMI].count, "no pair for a lower context");
	EXPECT_EQ(2, g.ctx_events[RB_CTX_NMI], "two NMI events");
}

/*
 * The rules over every event are half the verdict: their FAIL is the
 * capture's FAIL though every rbstress rule passed, in the text, JSON
 * and KTAP reports alike.
 */
TEST(generic_fail_with_rbstress_rules_passing_is_the_verdict)
{
	static struct rb_generic g;
	struct rb_event e[3];
	struct rb_input in = { .expect_clock = -1, .v = verifier(), .g = &g };
	char *buf;

	feed(in.v, e, clean_stream(e));
	rb_generic_init(&g, "global");
	gen_event(&g, 0, 1000, 0);
	gen_event(&g, 0, 900, 0);
	rb_generic_finish(&g);
	EXPECT_EQ(RB_PASS, rb_verdict(in.v), "the rbstress rules pass");
	EXPECT_EQ(RB_FAIL, rb_input_verdict(&in), "the generic order FAIL is the verdict");
	buf = report(rb_report_ktap, &in);
	EXPECT_STR_CONTAINS(buf, "not ok 7 order", "KTAP: the generic rule after the six");
	free(buf);
	buf = report(rb_report_json, &in);
	EXPECT_STR_CONTAINS(buf, "{\"source\":\"test\",\"verdict\":\"FAIL\"", "JSON: FAIL");
	free(buf);
	buf = report(rb_report_text, &in);
	EXPECT_STR_CONTAINS(buf, "rbcheck: verdict FAIL", "text: FAIL");
	free(buf);
	rb_verifier_free(in.v);

	/* and a generic SKIP leaves the rbstress PASS alone */
	rb_generic_init(&g, "global");
	in.v = verifier();
	feed(in.v, e, clean_stream(e));
	rb_generic_finish(&g);
	EXPECT_EQ(RB_PASS, rb_input_verdict(&in), "PASS with nothing generic to judge");
	rb_verifier_free(in.v);
}

TEST(generic_capture_of_one_event_per_cpu_is_not_judged)
{
	static struct rb_generic g;

	rb_generic_init(&g, "counter");
	gen_event(&g, 0, 1000, 0);
	gen_event(&g, 1, 900, 0);
	rb_generic_finish(&g);
	EXPECT_EQ(RB_SKIP, rb_generic_verdict(&g), "nothing to compare: SKIP, not PASS");
}


TEST_HARNESS_MAIN
