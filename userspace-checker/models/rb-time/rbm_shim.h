/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel for the rb_time_t code to compile in user
 * space.  Each local_*() operation is one atomic access, as on the CPU;
 * the explorer gets a chance to interrupt before every one of them.
 */
#ifndef RBM_SHIM_H
#define RBM_SHIM_H

#include "rbm.h"

typedef struct {
	unsigned long a;
} local_t;

#define barrier()	__asm__ __volatile__("" ::: "memory")

static inline unsigned long local_read(local_t *l)
{
	unsigned long v;

	rbm_point(l);
	v = l->a;
	rbm_done(l, RBM_LOAD, v, false);
	return v;
}

static inline void local_set(local_t *l, unsigned long v)
{
	rbm_point(l);
	l->a = v;
	rbm_done(l, RBM_STORE, v, true);
}

static inline unsigned long local_inc_return(local_t *l)
{
	unsigned long v;

	rbm_point(l);
	v = ++l->a;
	rbm_done(l, RBM_INC_RETURN, v, true);
	return v;
}

static inline unsigned long local_cmpxchg(local_t *l, unsigned long old,
					  unsigned long new)
{
	unsigned long v;

	rbm_point(l);
	v = l->a;
	if (v == old)
		l->a = new;
	rbm_done(l, RBM_CMPXCHG, v, v == old);
	return v;
}

static inline bool local_try_cmpxchg(local_t *l, unsigned long *old,
				     unsigned long new)
{
	unsigned long v = local_cmpxchg(l, *old, new);

	if (v == *old)
		return true;
	*old = v;
	return false;
}

#endif /* RBM_SHIM_H */
