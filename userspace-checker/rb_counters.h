/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring buffer's time stamp path counters (kernel-patches/LINE/0001 or
 * 0002), as shown in per_cpu/cpuN/stats: "ts path A-C: 12".  Each line's
 * series counts the paths of its own __rb_reserve_next(): 6.1 lumps the
 * two delta-0 outcomes of an interruption between A and C in one counter
 * and has read_failed (the 32-bit rb_time_t); 6.12 names where the
 * interruption was (B-C, A-B_delta_0, C-F_delta_0).  A kernel prints only
 * its own: which ones it printed is part of what is read.
 */
#ifndef _RB_COUNTERS_H
#define _RB_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "rb_verify.h"

enum rb_ts_path {
	RB_TS_FIRST_SUBBUF,
	RB_TS_READ_FAILED,
	RB_TS_BEFORE_AFTER,
	RB_TS_EXTEND,
	RB_TS_ABSOLUTE,
	RB_TS_A_TO_C,
	RB_TS_A_TO_C_LOST,
	RB_TS_B_TO_C,
	RB_TS_A_TO_B_LOST,
	RB_TS_C_TO_F_LOST,
	RB_TS_DISCARD_REMOVED,
	RB_TS_DISCARD_PADDING,
	RB_TS_PATH_MAX
};

extern const char *const rb_ts_path_names[RB_TS_PATH_MAX];

/* The paths an interruption between A and C sends an event down, any line. */
#define RB_TS_A_TO_C_PATHS ((1u << RB_TS_A_TO_C) | (1u << RB_TS_A_TO_C_LOST) | \
			    (1u << RB_TS_B_TO_C) | (1u << RB_TS_A_TO_B_LOST) | \
			    (1u << RB_TS_C_TO_F_LOST))

/*
 * What an event sent down an A-C path got at F: its delta kept (F's check
 * held: nothing came after its C, before_stamp == write_stamp; 6.1 "A-C",
 * 6.12 "B-C"), or delta 0 (6.1 "A-C,C-F_delta_0"; 6.12 "A-B_delta_0",
 * "C-F_delta_0").
 */
#define RB_TS_F_KEPT ((1u << RB_TS_A_TO_C) | (1u << RB_TS_B_TO_C))
#define RB_TS_F_ZERO ((1u << RB_TS_A_TO_C_LOST) | (1u << RB_TS_A_TO_B_LOST) | \
		      (1u << RB_TS_C_TO_F_LOST))

struct rb_path_counters {
	unsigned int	have;		/* the kernel's, 1 << enum rb_ts_path; 0: none */
	int		nr_cpus;
	uint64_t	v[RB_MAX_CPUS][RB_TS_PATH_MAX];
	/* The buffer was reset during the run (they went down): since then only. */
	bool		was_reset[RB_MAX_CPUS];
	/*
	 * Of a baseline: nothing had been read from this CPU's buffer and
	 * nothing overwritten ("read events" and "overrun" 0), so every event
	 * it counted is still there for the checker to read.  Of the
	 * difference: the counts are of every event since the buffer began
	 * (or its last reset), the very events read: the ledger is exact.
	 */
	bool		untouched[RB_MAX_CPUS];
	/*
	 * "dropped events" of the same stats: reservations refused because
	 * the buffer was full in no-overwrite mode.  Each was counted on the
	 * path it took at A before it failed at C, and left before_stamp
	 * ahead of write_stamp for the next attempt.
	 */
	uint64_t	dropped[RB_MAX_CPUS];
	/*
	 * "entries" of the stats read after the last drain, with recording
	 * off: events the kernel still holds that no reader got and no
	 * overrun counted.  Anything but 0 means events lost without a loss
	 * report (open finding b: rb_get_reader_page()'s size check before
	 * its commit_page check).  have_left: the capture had the stats.
	 */
	uint64_t	entries_left[RB_MAX_CPUS];
	bool		have_left;
	/* The kernel is known to use the 32-bit rb_time_t (a 32-bit kernel). */
	bool		rb_time_32;
};

/*
 * Parse the text of one stats file into @out.  Returns which path counters
 * it found (1 << enum rb_ts_path): 0 on a kernel without the series.
 */
unsigned int rb_counters_parse(const char *stats, uint64_t out[RB_TS_PATH_MAX]);
/* The "dropped events" count of one stats file's text (0 if it has none). */
uint64_t rb_counters_dropped(const char *stats);
/* The value of the line "KEY: N" of one stats file's text (0 if it has none). */
uint64_t rb_stats_value(const char *stats, const char *key);
/* Nothing read from or overwritten in the buffer of this stats file's CPU yet. */
bool rb_stats_untouched(const char *stats);


/* The sum of the counters of one CPU in @mask (1 << enum rb_ts_path). */
uint64_t rb_counters_sum(const struct rb_path_counters *k, int cpu, unsigned int mask);

/*
 * @after -= @before, per CPU; a CPU whose counters went down was reset in
 * between (a trace_clock switch, an unloaded module's events): it keeps
 * @after, the counts since the reset, and is marked was_reset.  A CPU
 * untouched in @before keeps @after whole: the events counted before the
 * baseline are still in its buffer, and read (@after marked untouched).
 */
void rb_counters_sub(struct rb_path_counters *after, const struct rb_path_counters *before);

#endif /* _RB_COUNTERS_H */
