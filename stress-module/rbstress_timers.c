// SPDX-License-Identifier: GPL-2.0
/*
 * Timer-driven writers, pinned per CPU:
 *
 *  - softirq: an hrtimer expiring in softirq context (HRTIMER_MODE_*_SOFT)
 *    writes an event; its window opens inside normal-context windows and
 *    hard interrupts land inside it;
 *  - hard IRQ: an hrtimer expiring in hard interrupt context writes an
 *    event; NMIs land inside its window;
 *  - NMI sender: an hrtimer that raises an NMI on another CPU (when the
 *    NMI source is IPI), so that the NMI arrives at an unrelated moment of
 *    that CPU, possibly at the bottom of a four-deep stack.
 */
#define pr_fmt(fmt) "rbstress: " fmt

#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/percpu.h>

#include "rbstress.h"

enum rbs_timer_kind {
	RBS_TIMER_SOFTIRQ,
	RBS_TIMER_IRQ,
	RBS_TIMER_NMI_SEND,
	RBS_TIMER_MAX
};

struct rbs_timer {
	struct hrtimer	timer;
	u64		period_ns;
	bool		started;
};

static DEFINE_PER_CPU(struct rbs_timer [RBS_TIMER_MAX], rbs_timers);

static enum hrtimer_restart rbs_timer_fn(struct hrtimer *timer)
{
	struct rbs_timer *t = container_of(timer, struct rbs_timer, timer);
	struct rbs_timer *mine = this_cpu_ptr(rbs_timers);

	if (t == &mine[RBS_TIMER_NMI_SEND])
		rbs_nmi_send_from_this_cpu();
	else
		rbs_write();
	hrtimer_forward_now(timer, ns_to_ktime(t->period_ns));
	return HRTIMER_RESTART;
}

static void rbs_timer_start(struct rbs_timer *t, unsigned int period_us,
			    enum hrtimer_mode mode)
{
	if (!period_us)
		return;
	t->period_ns = (u64)period_us * NSEC_PER_USEC;
	/* which of the two the tree has: Kbuild asks its header */
#ifdef RBS_HAVE_HRTIMER_SETUP
	hrtimer_setup(&t->timer, rbs_timer_fn, CLOCK_MONOTONIC, mode);
#else
	hrtimer_init(&t->timer, CLOCK_MONOTONIC, mode);
	t->timer.function = rbs_timer_fn;
#endif
	hrtimer_start(&t->timer, ns_to_ktime(t->period_ns), mode);
	t->started = true;
}

/* Must run on the CPU the timers are pinned to (its hotplug callback). */
void rbs_timers_start_this_cpu(void)
{
	struct rbs_timer *t = this_cpu_ptr(rbs_timers);

	rbs_timer_start(&t[RBS_TIMER_SOFTIRQ], rbs_settings.softirq_period_us,
			HRTIMER_MODE_REL_PINNED_SOFT);
	rbs_timer_start(&t[RBS_TIMER_IRQ], rbs_settings.irq_period_us,
			HRTIMER_MODE_REL_PINNED_HARD);
	if (rbs_settings.nmi_source == RBS_NMI_IPI)
		rbs_timer_start(&t[RBS_TIMER_NMI_SEND], rbs_settings.nmi_period_us,
				HRTIMER_MODE_REL_PINNED_HARD);
}

void rbs_timers_stop_cpu(unsigned int cpu)
{
	struct rbs_timer *t = per_cpu_ptr(rbs_timers, cpu);
	int i;

	for (i = 0; i < RBS_TIMER_MAX; i++) {
		if (t[i].started) {
			hrtimer_cancel(&t[i].timer);
			t[i].started = false;
		}
	}
}
