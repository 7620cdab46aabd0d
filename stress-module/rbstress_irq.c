// SPDX-License-Identifier: GPL-2.0
/*
 * Hard-IRQ writers: one pinned hrtimer per online CPU that expires in hard
 * interrupt context and writes an event each period.  When it fires while
 * a normal-context event holds its window open, its event is nested.
 */
#define pr_fmt(fmt) "rbstress: " fmt

#include <linux/cpu.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/smp.h>

#include "rbstress.h"

static DEFINE_PER_CPU(struct hrtimer, rbs_irq_timer);

static enum hrtimer_restart rbs_irq_fn(struct hrtimer *timer)
{
	rbs_write();
	hrtimer_forward_now(timer,
			    ns_to_ktime(rbs_settings.irq_period_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* Runs on the CPU the timer is pinned to. */
static void rbs_irq_start_this_cpu(void *unused)
{
	struct hrtimer *t = this_cpu_ptr(&rbs_irq_timer);

	hrtimer_init(t, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	t->function = rbs_irq_fn;
	hrtimer_start(t, ns_to_ktime(rbs_settings.irq_period_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static cpumask_t rbs_irq_cpus;

int rbs_irq_start(void)
{
	cpus_read_lock();
	cpumask_copy(&rbs_irq_cpus, cpu_online_mask);
	on_each_cpu_mask(&rbs_irq_cpus, rbs_irq_start_this_cpu, NULL, 1);
	cpus_read_unlock();
	return 0;
}

void rbs_irq_stop(void)
{
	int cpu;

	for_each_cpu(cpu, &rbs_irq_cpus)
		hrtimer_cancel(per_cpu_ptr(&rbs_irq_timer, cpu));
	cpumask_clear(&rbs_irq_cpus);
}
