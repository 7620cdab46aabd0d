// SPDX-License-Identifier: GPL-2.0
/*
 * NMI writers.  An event recorded from NMI context is the innermost level
 * of nesting the ring buffer handles (its 2-bit rb_time_t counters are sized
 * for normal, softirq, irq and NMI).  Two sources:
 *
 *  - perf: a pinned cycles counter per CPU whose overflow handler runs in
 *    NMI context, where the CPU has a PMU;
 *  - IPI: where it has none (QEMU TCG: "PMU not available due to
 *    virtualization"), another CPU's timer raises an NMI through the local
 *    APIC.  A per-CPU pending count lets the handler claim only the NMIs we
 *    sent, one per call: an NMI sent while another is being handled arrives
 *    on its own and must find its count.  NMIs sent while one is latched
 *    merge, which leaves counts behind; so sent and received are counted
 *    apart.  Not send_IPI_self(): in x2APIC mode the self-IPI
 *    path cannot deliver NMIs.
 */
#define pr_fmt(fmt) "rbstress: " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/nmi.h>

#include "rbstress.h"

static DEFINE_PER_CPU(atomic_t, rbs_nmi_pending);
static DEFINE_PER_CPU(struct perf_event *, rbs_nmi_perf);
/* CPUs whose writers run: the only ones NMIs are sent to. */
static struct cpumask rbs_nmi_cpus;
static bool rbs_nmi_handler_registered;

const char * const rbs_nmi_source_names[] = {
	[RBS_NMI_NONE]	= "none",
	[RBS_NMI_PERF]	= "perf",
	[RBS_NMI_IPI]	= "ipi",
};

static int rbs_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	/* Claim one NMI we sent, or leave it to whoever sent it. */
	if (atomic_dec_if_positive(this_cpu_ptr(&rbs_nmi_pending)) < 0)
		return NMI_DONE;
	this_cpu_inc(rbs_cpu.stats.nmi_received);
	rbs_write();
	return NMI_HANDLED;
}

/* From a hard-IRQ timer: raise an NMI on the next CPU that runs writers. */
void rbs_nmi_send_from_this_cpu(void)
{
	unsigned int cpu = smp_processor_id();
	unsigned int target;

	target = cpumask_next(cpu, &rbs_nmi_cpus);
	if (target >= nr_cpu_ids)
		target = cpumask_first(&rbs_nmi_cpus);
	if (target >= nr_cpu_ids || target == cpu)
		return;
	atomic_inc(per_cpu_ptr(&rbs_nmi_pending, target));
	apic->send_IPI_mask(cpumask_of(target), NMI_VECTOR);
	this_cpu_inc(rbs_cpu.stats.nmi_sent);
}

static void rbs_nmi_overflow(struct perf_event *event,
			     struct perf_sample_data *data, struct pt_regs *regs)
{
	this_cpu_inc(rbs_cpu.stats.nmi_received);
	rbs_write();
}

static struct perf_event *rbs_nmi_perf_create(unsigned int cpu)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_HARDWARE,
		.config		= PERF_COUNT_HW_CPU_CYCLES,
		.size		= sizeof(attr),
		.pinned		= 1,
		/* about nmi_period_us on a 1 GHz CPU */
		.sample_period	= (u64)rbs_settings.nmi_period_us * 1000,
	};

	return perf_event_create_kernel_counter(&attr, cpu, NULL,
						rbs_nmi_overflow, NULL);
}

/*
 * Decide the source: @want is "auto", "perf", "ipi" or "none".  Sets
 * rbs_settings.nmi_source; "auto" falls back from perf to IPI to none.
 */
int rbs_nmi_init(const char *want)
{
	enum rbs_nmi_source src = RBS_NMI_NONE;
	struct perf_event *ev;
	int ret;

	if (!rbs_settings.nmi_period_us || !strcmp(want, "none"))
		goto out;

	if (!strcmp(want, "auto") || !strcmp(want, "perf")) {
		ev = rbs_nmi_perf_create(raw_smp_processor_id());
		if (!IS_ERR(ev)) {
			perf_event_release_kernel(ev);
			src = RBS_NMI_PERF;
			goto out;
		}
		if (!strcmp(want, "perf")) {
			pr_err("nmi=perf: no usable PMU (%ld)\n", PTR_ERR(ev));
			return -EINVAL;
		}
	}
	if (num_online_cpus() < 2) {
		if (!strcmp(want, "ipi")) {
			pr_err("nmi=ipi needs at least 2 online CPUs\n");
			return -EINVAL;
		}
		goto out;
	}
	ret = register_nmi_handler(NMI_LOCAL, rbs_nmi_handler, 0, "rbstress");
	if (ret) {
		pr_err("cannot register the NMI handler (%d)\n", ret);
		return ret;
	}
	rbs_nmi_handler_registered = true;
	src = RBS_NMI_IPI;
out:
	rbs_settings.nmi_source = src;
	return 0;
}

/* Nothing: that every CPU ran it is the point (rbs_nmi_exit()). */
static void rbs_nmi_sync(void *unused)
{
}

void rbs_nmi_exit(void)
{
	if (rbs_nmi_handler_registered) {
		/*
		 * The senders are stopped (their timers cancelled), but an NMI
		 * they sent may not have been taken yet: its CPU is a vCPU the
		 * host has not run since (4 vCPUs on 2 host CPUs: the kernel
		 * said "NMI received for unknown reason" right after a reload).
		 * A CPU takes a pending NMI before any maskable interrupt, so
		 * once every CPU has run a function call sent now, every NMI
		 * of ours has met this handler.
		 */
		on_each_cpu(rbs_nmi_sync, NULL, 1);
		unregister_nmi_handler(NMI_LOCAL, "rbstress");
		rbs_nmi_handler_registered = false;
	}
}

int rbs_nmi_start_cpu(unsigned int cpu)
{
	struct perf_event *ev;

	if (rbs_settings.nmi_source == RBS_NMI_PERF) {
		ev = rbs_nmi_perf_create(cpu);
		if (IS_ERR(ev)) {
			pr_err("cpu%u: cannot create the perf NMI counter (%ld)\n",
			       cpu, PTR_ERR(ev));
			return PTR_ERR(ev);
		}
		per_cpu(rbs_nmi_perf, cpu) = ev;
	}
	atomic_set(per_cpu_ptr(&rbs_nmi_pending, cpu), 0);
	cpumask_set_cpu(cpu, &rbs_nmi_cpus);
	return 0;
}

void rbs_nmi_stop_cpu(unsigned int cpu)
{
	struct perf_event *ev = per_cpu(rbs_nmi_perf, cpu);

	cpumask_clear_cpu(cpu, &rbs_nmi_cpus);
	if (ev) {
		perf_event_release_kernel(ev);
		per_cpu(rbs_nmi_perf, cpu) = NULL;
	}
}
