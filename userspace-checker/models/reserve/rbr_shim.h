/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel for the reserve path of ring_buffer.c to
 * compile in user space, on one CPU with one sub-buffer.
 *
 * Every local_t and local64_t operation is one atomic access, as on the
 * CPU, and the explorer may interrupt before each of them (rbr_point());
 * plain loads and stores of the page are not interrupt points: only
 * the context that owns the space writes it.  The trace clock is
 * rbr_clock(): an interrupt point too, and a choice between a clock that
 * moved and one that did not.
 *
 * What is left out is named in docs/model.md: no overwrite mode and no
 * reader (the pages are read once, at the end), no absolute-time mode,
 * and our series' counters and test-only delays are no-ops.
 */
#ifndef RBR_SHIM_H
#define RBR_SHIM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rbr.h"

typedef uint8_t u8;
typedef uint16_t u16;

typedef long long s64;

/*
 * A sub-buffer is one page, of rbr_page_size bytes (--page-size): 4096,
 * which the model's events never fill, or smaller, so that they switch
 * pages.  Each is allocated 4096-aligned, so masking an address inside
 * it with PAGE_MASK still finds its start.
 */
#define PAGE_SIZE	rbr_page_size
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#undef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#define noinline		__attribute__((noinline))
#define __aligned(x)		__attribute__((aligned(x)))
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define fallthrough		__attribute__((__fallthrough__))
#define barrier()		__asm__ __volatile__("" ::: "memory")
#define smp_wmb()		barrier()
/*
 * cpu_buffer->tail_page moves on a page switch (rb_tail_page_update(),
 * any context): its READ_ONCE() and try_cmpxchg() are interrupt points.
 * Every other READ_ONCE() reads what only this CPU's outermost context
 * changes.  (Its plain reads are not: see docs/model.md.)
 */
static void *rbr_tail_page_word;
#define READ_ONCE(x) ({							\
	__typeof__(x) *__p = &(x), __v;					\
	bool __s = (void *)__p == rbr_tail_page_word;			\
	if (__s)							\
		rbr_point(__p);						\
	__v = *(volatile __typeof__(x) *)__p;				\
	if (__s)							\
		rbr_done(__p, RBR_LOAD, (u64)(uintptr_t)__v, false);	\
	__v; })
#define try_cmpxchg(ptr, oldp, new) ({					\
	__typeof__(*(ptr)) __o = *(oldp);				\
	bool __ok;							\
	rbr_point(ptr);							\
	__ok = *(ptr) == __o;						\
	if (__ok)							\
		*(ptr) = (new);						\
	else								\
		*(oldp) = *(ptr);					\
	rbr_done(ptr, RBR_CMPXCHG, (u64)(uintptr_t)__o, __ok);		\
	__ok; })
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define __same_type(a, b)	__builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#define ALIGN(x, a)		(((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define EXPORT_SYMBOL_GPL(x)
#define ERR_PTR(e)		((void *)(long)(e))
#define PTR_ERR(p)		((long)(p))
#define EAGAIN			11
#define BIT(n)			(1UL << (n))

/* x86_64: no forced 8-byte alignment of events */
#define RB_FORCE_8BYTE_ALIGNMENT	0
#define RB_ARCH_ALIGNMENT		RB_ALIGNMENT
#define RB_ALIGN_DATA			__aligned(RB_ARCH_ALIGNMENT)

/* IS_ENABLED(CONFIG_X): the options of an x86_64 guest kernel */
#define IS_ENABLED(option)		RBR_##option
#define RBR_CONFIG_ARCH_HAVE_NMI_SAFE_CMPXCHG	1
#define RBR_CONFIG_RETPOLINE			0
#define RBR_CONFIG_MITIGATION_RETPOLINE		0
#define RBR_CONFIG_GENERIC_ATOMIC64		0

struct list_head {
	struct list_head *next, *prev;
};
#define container_of(ptr, type, member)	((type *)((char *)(ptr) - offsetof(type, member)))
#define list_entry(ptr, type, member)	container_of(ptr, type, member)

/* ---- the kernel's log and warnings: each one is a finding ---- */

static inline void rbr_printk(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void rbr_printk(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	rbr_kernel_log(line);
}
#define pr_warn(fmt, ...)	rbr_printk(fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	rbr_printk(fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	do { } while (0)

#define WARN_ON_ONCE(cond) ({						\
	int __c = !!(cond);						\
	if (__c)							\
		rbr_kernel_warning("WARN_ON_ONCE(" #cond ")");		\
	__c; })
#define WARN_ONCE(cond, fmt, ...) ({					\
	int __c = !!(cond);						\
	if (__c) {							\
		rbr_printk(fmt, ##__VA_ARGS__);				\
		rbr_kernel_warning("WARN_ONCE()");			\
	}								\
	__c; })
#define RB_WARN_ON(b, cond) ({						\
	int __c = !!(cond);						\
	if (__c)							\
		rbr_kernel_warning("RB_WARN_ON(" #cond ")");		\
	__c; })

enum system_states { SYSTEM_BOOTING, SYSTEM_RUNNING };
static const enum system_states system_state = SYSTEM_RUNNING;

/* ---- atomics: local_t, local64_t (interrupt points) and atomic_t ---- */

typedef struct {
	long a;
} local_t;

typedef struct {
	u64 a;
} local64_t;

static inline long local_read(local_t *l)
{
	long v;

	rbr_point(l);
	v = l->a;
	rbr_done(l, RBR_LOAD, v, false);
	return v;
}

static inline void local_set(local_t *l, long v)
{
	rbr_point(l);
	l->a = v;
	rbr_done(l, RBR_STORE, v, true);
}

static inline long local_add_return(long i, local_t *l)
{
	long v;

	rbr_point(l);
	v = l->a += i;
	rbr_done(l, RBR_RMW, v, true);
	return v;
}

#define local_add(i, l)		((void)local_add_return((i), (l)))
#define local_sub(i, l)		((void)local_add_return(-(long)(i), (l)))
#define local_inc(l)		((void)local_add_return(1, (l)))
#define local_dec(l)		((void)local_add_return(-1, (l)))
#define local_inc_return(l)	local_add_return(1, (l))

/* A cmpxchg of a local_t or a local64_t: one atomic access, the old value */
#define rbr_cmpxchg(l, old, new) ({					\
	__typeof__((l)->a) __v;						\
	rbr_point(l);							\
	__v = (l)->a;							\
	if (__v == (old))						\
		(l)->a = (new);						\
	rbr_done(l, RBR_CMPXCHG, __v, __v == (old));			\
	__v; })

static inline long local_cmpxchg(local_t *l, long old, long new)
{
	return rbr_cmpxchg(l, old, new);
}

static inline bool local_try_cmpxchg(local_t *l, long *old, long new)
{
	long v = local_cmpxchg(l, *old, new);

	if (v == *old)
		return true;
	*old = v;
	return false;
}

static inline u64 local64_read(local64_t *l)
{
	u64 v;

	rbr_point(l);
	v = l->a;
	rbr_done(l, RBR_LOAD, v, false);
	return v;
}

static inline void local64_set(local64_t *l, u64 v)
{
	rbr_point(l);
	l->a = v;
	rbr_done(l, RBR_STORE, v, true);
}

/* the 64-bit rb_time_cmpxchg() of the trees before 6.7, for seeded faults */
static inline u64 local64_cmpxchg(local64_t *l, u64 old, u64 new)
{
	return rbr_cmpxchg(l, old, new);
}

/*
 * atomic_t here is the audit's re-entry guard and the record-disabled
 * count: per CPU, changed only by the context that holds it across its
 * own accesses, so not an interrupt point of its own.
 */
typedef struct {
	int counter;
} atomic_t;

#define atomic_read(v)		((v)->counter)
#define atomic_inc(v)		((void)++(v)->counter)
#define atomic_dec(v)		((void)--(v)->counter)
#define atomic_inc_return(v)	(++(v)->counter)
#define this_cpu_ptr(p)		(p)

/* check_buffer()'s guards: per CPU, and here there is one CPU */
static atomic_t checking, ts_dump;

/* ---- the one CPU, its buffer and its context ---- */

#define raw_smp_processor_id()		0
#define smp_processor_id()		0
#define cpumask_test_cpu(cpu, mask)	1
#define preempt_disable_notrace()	do { } while (0)
#define preempt_enable_notrace()	do { } while (0)
#define in_nmi()			(rbr_level() == 3)

/*
 * The 64-bit rb_time_t, as in the tree (extract-reserve.py checks that the
 * tree's is this one local64_t: 6.12's only form, 6.1's #else of RB_TIME_32).
 */
struct rb_time_struct {
	local64_t	time;
};
typedef struct rb_time_struct rb_time_t;

struct trace_buffer {
	unsigned int flags;
	atomic_t record_disabled;
	struct ring_buffer_per_cpu **buffers;
	u64 (*clock)(void);
	bool time_stamp_abs;
	unsigned int subbuf_order;	/* 6.12 */
	unsigned int max_data_size;	/* 6.12 */
	void *cpumask;
};

/*
 * The persistent ring buffer's per-CPU meta data, only on a page switch
 * and never set here: 6.12 calls it struct ring_buffer_meta, 7.x struct
 * ring_buffer_cpu_meta (which the extraction takes from the tree); a
 * void pointer serves either.
 */
struct ring_buffer_meta {
	unsigned long commit_buffer;
};

/* The fields the reserve path uses (our series adds test_removed). */
struct ring_buffer_per_cpu {
	int cpu;
	atomic_t record_disabled;
	struct trace_buffer *buffer;
	struct buffer_page *head_page;
	struct buffer_page *tail_page;
	struct buffer_page *commit_page;
	struct buffer_page *reader_page;
	unsigned long nr_pages;
	local_t entries_bytes;
	local_t entries;
	local_t committing;
	local_t commits;
	local_t pages_touched;
	local_t commit_overrun;
	local_t dropped_events;
	unsigned long last_pages_touch;
	rb_time_t before_stamp;
	rb_time_t write_stamp;
	u64 event_stamp[8];
	bool test_removed;
	void *ring_meta;
};

static inline bool ring_buffer_time_stamp_abs(struct trace_buffer *buffer)
{
	return buffer->time_stamp_abs;
}

static inline u64 trace_clock_local(void)
{
	return rbr_clock();
}

static inline bool sched_clock_stable(void)
{
	return true;
}

static inline unsigned long rb_subbuf_start(struct trace_buffer *buffer, unsigned long addr)
{
	return addr & PAGE_MASK;
}

/* Nested contexts are each their own level here: never recursion. */
#define trace_recursive_lock(cpu_buffer)	0
#define trace_recursive_unlock(cpu_buffer)	do { } while (0)
/* Wakes readers; the model has none. */
#define rb_wakeups(buffer, cpu_buffer)		do { } while (0)
/* Per-page entry counts for readers; not a time stamp. */
#define rb_decrement_entry(cpu_buffer, event)	do { } while (0)
/* A debug check that the event is on the current page (CONFIG_RING_BUFFER_VALIDATE...) */
#define verify_event(cpu_buffer, event)		do { } while (0)

#define show_flags(event)		""
#define show_irq(event)			""
#define show_interrupt_level()		""

/*
 * Overwrite mode: the writer pushes the head page forward.  The model's
 * buffer is not in overwrite mode and has a page for every event it can
 * write (the head page is never reached; if it were, the tree would drop
 * the event and the oracle would say so).
 */
#define rb_handle_head_page(cpu_buffer, tail_page, next_page) \
	(rbr_unmodelled("rb_handle_head_page(): overwrite mode"), -1)

/* Our series' path counters, negative control and test-only delays. */
#define rb_count_ts_path(...)		do { } while (0)
#define rb_uncount_ts_path(...)		do { } while (0)
#define rb_legacy_nested_delta(...)	do { } while (0)
#define rb_discard_delay(...)		do { } while (0)
#define rb_discard_delay_mark(...)	do { } while (0)
#define rb_nest_delay_ab(...)		do { } while (0)
#define rb_nest_delay_cd(...)		do { } while (0)
#define rb_nest_delay_start(...)	do { } while (0)

#endif /* RBR_SHIM_H */
