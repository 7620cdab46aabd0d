/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capturing a tracefs instance's ring buffer: its per-CPU trace_pipe_raw
 * files drained in turn, and the raw capture on disk (rb_raw_format.h)
 * that rbcheck verify reads anywhere.  Shared by rbcheck live (--save-raw,
 * --keep-failing) and rbdrain, so libc only: rbdrain is linked static for
 * guests that cannot run rbcheck (i386).
 */
#ifndef _RB_CAPTURE_H
#define _RB_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

/* The most CPUs anything here reads: the checker's limit too. */
#define RB_MAX_CPUS		256
/*
 * Sub-buffers read from one CPU before the next gets its turn: a CPU that
 * writes faster than the reader drains must not starve the others, nor the
 * reader's own checks (the clock, the progress line, the stop).
 */
#define RB_CAPTURE_TURN		32

/* The per-CPU buffers of one instance, opened O_NONBLOCK. */
struct rb_capture_src {
	char	dir[4096];	/* <tracefs>/instances/<name>, or <tracefs> */
	int	ncpus;
	/*
	 * The size of one sub-buffer, the unit trace_pipe_raw is read in:
	 * buffer_subbuf_size_kb of the instance (6.6 and later can make it
	 * larger than a page), or the page size where there is no such file.
	 */
	int	subbuf_size;
	/* the trace clock it records with, from trace_clock ("" if unreadable) */
	char	clock[32];
	int	fd[RB_MAX_CPUS];
};

/*
 * Open per_cpu/cpuN/trace_pipe_raw of @instance (NULL: the top level) for
 * every CPU that has one, and learn its sub-buffer size and trace clock.  Returns 0, or -1
 * with @err saying what and where.
 */
int rb_capture_open(struct rb_capture_src *s, const char *tracefs, const char *instance,
		    char *err, size_t errlen);
void rb_capture_close_src(struct rb_capture_src *s);

/*
 * Called for each sub-buffer read: @page holds its @psize bytes.  Returns
 * 0, or -1 to stop the drain.
 */
typedef int (*rb_capture_fn)(void *arg, int cpu, void *page, int psize);

/*
 * Read up to @max sub-buffers of @cpu (0: until it has none now) into
 * @page and hand each to @fn; a short read is an error.  A bound per
 * turn keeps one busy CPU from starving the others.  Returns the number
 * read, or -1 (@err says why, unless @fn stopped it).
 */
int rb_capture_drain_cpu(struct rb_capture_src *s, int cpu, void *page, int psize, int max,
			 rb_capture_fn fn, void *arg, char *err, size_t errlen);

/*
 * Clearing tracing_on stops new events, not the writers already past
 * ring_buffer_lock_reserve()'s check: they still stamp and commit theirs,
 * and what interrupts committed inside an event still open becomes
 * readable only when that event commits (a test-only delay holds one open
 * for up to 10 ms, a vCPU the host does not run, longer).  Nothing in
 * tracefs waits for them.  So after tracing_on is cleared, drain every CPU
 * to the end, and again after @quiet_ms, until a round reads nothing and
 * no CPU's per_cpu/cpuN/stats changed in between ("now ts" aside); wait at
 * most RB_CAPTURE_QUIET_MAX_MS.  Returns the number of sub-buffers read,
 * or -1 (@err says why, unless @fn stopped it); *@quiet says whether the
 * buffer went quiet in time (if not, @err says so, for a warning).
 */
#define RB_CAPTURE_QUIET_MS	100
#define RB_CAPTURE_QUIET_MAX_MS	10000
long rb_capture_drain_quiet(struct rb_capture_src *s, void *page, int psize, int quiet_ms,
			    rb_capture_fn fn, void *arg, int *quiet, char *err, size_t errlen);

struct rb_capture_writer;

/*
 * Start a raw capture of @ncpus CPUs in @dir (created if needed): meta
 * says the page size, this machine's long size, byte order and name, the
 * CPU count and the trace clock @clock (if not ""), so that a reader
 * judges by the clock the capture was recorded with.  With @stream, the
 * sub-buffers of all CPUs go to that file (a disk in a guest) as one
 * stream of records instead of dir/cpuN.raw.  Returns NULL with @err set.
 */
struct rb_capture_writer *rb_capture_create(const char *dir, int psize, int ncpus,
					    const char *clock, const char *stream,
					    char *err, size_t errlen);
/*
 * The trace clock was switched while capturing (the buffer was reset):
 * meta will say so, and that no one clock stamped all of it.
 */
void rb_capture_clock_switched(struct rb_capture_writer *w);
/* Copy the file @src (a small tracefs file) into the capture as @name. */
int rb_capture_copy(struct rb_capture_writer *w, const char *src, const char *name);
/* Append one sub-buffer of @cpu: its header and committed data. */
int rb_capture_save(struct rb_capture_writer *w, int cpu, const void *page, int psize);
/*
 * End the capture: the stream's end record, every file closed, then each
 * CPU's byte count (and the stream's length) in meta, @w freed.  Returns 0, or -1 with @err saying what failed
 * here or earlier (a failed save may be ignored by its caller: finish
 * still reports it).
 */
int rb_capture_finish(struct rb_capture_writer *w, char *err, size_t errlen);
/* What the last failing call on @w could not do, with where. */
const char *rb_capture_error(const struct rb_capture_writer *w);

#endif /* _RB_CAPTURE_H */
