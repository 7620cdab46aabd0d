/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbmodel: an exhaustive checker for the ring buffer's 32-bit rb_time_t.
 *
 * The code under test (rb_time_read/rb_time_set/rb_time_cmpxchg of a
 * "variant") is plain C compiled against rbm_shim.h, where every access
 * to a shared word first calls rbm_point(): the explorer may run a whole
 * higher context right there, inside the call, before the access goes
 * on.  That is exactly how nesting looks on one CPU: an interrupt runs to
 * completion before the interrupted context resumes, so no threads or
 * coroutines are needed.
 */
#ifndef RBM_H
#define RBM_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t u64;

/* The largest rb_time_t modelled: cnt, top, bottom, msb. */
#define RBM_MAX_WORDS	4

struct rbm_variant {
	const char *name;
	const char *what;		/* one line for --list and reports */
	unsigned int nwords;
	const char *const *word_names;	/* struct order */
	u64 value_mask;			/* the widest time stamp it holds */
	/* operations on the words at @t; cmpxchg is NULL when absent */
	bool (*read)(void *t, u64 *ret);
	void (*set)(void *t, u64 val);
	bool (*cmpxchg)(void *t, u64 expect, u64 set);
	const char *no_cmpxchg_why;	/* why cmpxchg is not modelled */
};

extern const struct rbm_variant rbm_variant_tree;
extern const struct rbm_variant rbm_variant_article;
extern const struct rbm_variant rbm_variant_read_nocnt;
extern const struct rbm_variant rbm_variant_set_noretry;
extern const struct rbm_variant rbm_variant_cmpxchg_nocnt;

/* Access kinds, as the shim reports them. */
enum rbm_access {
	RBM_LOAD,
	RBM_STORE,
	RBM_INC_RETURN,
	RBM_CMPXCHG,
};

/* Called by the shim before and after each access to a shared word. */
void rbm_point(const void *word);
void rbm_done(const void *word, enum rbm_access kind, unsigned long val,
	      bool modified);

#endif /* RBM_H */
