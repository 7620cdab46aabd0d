/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbreserve: an exhaustive checker for the ring buffer's reserve path.
 *
 * The tree's own __rb_reserve_next() (steps A-F), rb_reserve_next_event(),
 * the commit and discard paths and the writer-side audit check_buffer()
 * are extracted verbatim (extract-reserve.py) and compiled against
 * rbr_shim.h, where every access to a shared word and every read of the
 * trace clock first calls rbr_point(): the explorer may run a whole
 * higher context right there, as an interrupt does on one CPU, and every
 * clock read may either advance the clock or find it where it was.
 *
 * This header is the interface between the tree's code (rbr_tree.c, one
 * copy per seeded fault) and the explorer.
 */
#ifndef RBR_H
#define RBR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned long long u64;	/* as the kernel's, for its formats */
typedef uint32_t u32;
typedef uint32_t __u32;	/* the uapi spelling (7.x: struct ring_buffer_cpu_meta) */

/* normal, softirq, irq, NMI; each writes up to RBR_MAX_OPS events */
#define RBR_MAX_DEPTH	4
#define RBR_MAX_OPS	4
#define RBR_MAX_EVENTS	(RBR_MAX_DEPTH * RBR_MAX_OPS)

/* Access kinds, as the shim reports them. */
enum rbr_access {
	RBR_LOAD,
	RBR_STORE,
	RBR_RMW,		/* add/sub/inc/dec, with or without return */
	RBR_CMPXCHG,
	RBR_CLOCK,		/* a read of the trace clock */
};

/* One entry of the buffer as the model's reader decodes it. */
enum rbr_entry_kind { RBR_DATA, RBR_PADDING, RBR_EXTEND, RBR_ABSOLUTE };

struct rbr_entry {
	enum rbr_entry_kind kind;
	unsigned int offset;	/* sub-buffer * RBR_PAGE_DEFAULT + offset in its data */
	u64 delta;		/* the delta (extend: its value; absolute: the stamp) */
	u64 ts;			/* the time stamp after it */
	unsigned int id;	/* data: the event's payload, its number + 1 */
};

#define RBR_MAX_ENTRIES	64

/* The tree's code, built with or without one seeded fault. */
struct rbr_variant {
	const char *name;	/* "tree", or the fault's name */
	const char *what;	/* one line for --list and reports */
	const char *nest_what;	/* what the model's page and nesting are */
	void (*reset)(void);	/* a fresh buffer of one empty sub-buffer */
	/* the public API, on that buffer (the caller is the CPU) */
	void *(*reserve)(unsigned long length);
	void *(*event_data)(void *event);
	u64 (*event_time_stamp)(void *event);	/* of the reserved event */
	void (*commit)(void *event);
	void (*discard)(void *event);
	/* the model's reader: the buffer's entries, in order; -1 if malformed */
	int (*decode)(struct rbr_entry *e, int max, char *why, size_t len);
	/* the stamps */
	void (*stamps)(u64 *before, u64 *write);
	/* every shared word and the page, mixed into h */
	u64 (*hash)(u64 h, u64 (*mix)(u64, u64));
	/* the name of a shared word, for traces */
	const char *(*word_name)(const void *word);
	/*
	 * A word only counted, never read by the writer: an interrupt just
	 * before an access to it is the same as one just after (adds
	 * commute, and no decision reads it), so it is no interrupt point.
	 */
	bool (*counter_only)(const void *word);
	/* the tail page's write index, whose add is step C */
	bool (*is_write_index)(const void *word);
};

extern const struct rbr_variant *const rbr_variants[];
extern const unsigned int rbr_nvariants;

/*
 * The sub-buffer's size, header included (--page-size): RBR_PAGE_DEFAULT,
 * which no bound fills, or smaller, so that events switch sub-buffers.
 */
#define RBR_PAGE_DEFAULT	4096UL
extern unsigned long rbr_page_size;

/*
 * Whether one clock read of an execution may also find the clock jumped by
 * RBR_JUMP (--clock-jump): a delta too large for the event header's 27
 * bits, so that the time-extend path is explored.
 */
extern bool rbr_clock_jumps;

/* The explorer's side, called by the shim. */
void rbr_point(const void *word);
void rbr_done(const void *word, enum rbr_access kind, u64 val, bool modified);
u64 rbr_clock(void);
int rbr_level(void);			/* 0 normal, 1 softirq, 2 irq, 3 nmi */
void rbr_kernel_warning(const char *what);	/* WARN_ON and friends */
void rbr_kernel_log(const char *line);		/* pr_warn() and friends */
void __attribute__((noreturn)) rbr_unmodelled(const char *what);

#endif /* RBR_H */
