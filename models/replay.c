// SPDX-License-Identifier: GPL-2.0
/*
 * The replay driver: walks the pressure once, moving the world to each call's start, and asks
 * every policy in turn what it would have done; sums the outcomes per policy, per list and per
 * memcg. The policies never see each other: each keeps its own state, and the world is
 * read-only while they run, so side by side equals one at a time.
 *
 * Calls that overlap in the recording run interleaved. The kernel ran them at once: two tasks
 * in direct or limit reclaim of one memcg (or kswapd and a direct reclaimer of its node) each
 * isolate from the lists as the other leaves them, each stops at its own goal, and they share
 * the memcg reclaim iterator and the lruvec's anon/file cost (mm/vmscan.c shrink_lruvec(),
 * isolate_lru_folios() under the lruvec's lru_lock, mem_cgroup_iter() with a reclaim cookie,
 * lru_note_cost()). Run one after the other, the second call found the list whole: on
 * anon-2stream-busy two calls at priority 0 overlapped for 188 ms, and the second, replayed
 * alone, scanned the whole inactive anon list (32,697 pages) where the kernel's, racing the
 * other, found it empty in 452 of its 1,022 isolations.
 *
 * Each invocation of a policy that overlaps another runs as a coroutine (below: one at a time,
 * so the order is deterministic) that yields before every isolation (models/engine.c:
 * rs_sim_shrink_inactive(), rs_sim_shrink_active(), rs_sim_shrink_merged()). The model's n-th
 * isolation of a call happens at the time of the recorded call's n-th lru_isolate event
 * (rs_recorded.isolate_ts), at the call's end past the last one; the driver always resumes
 * the call whose next isolation is earliest (the earlier call on a tie), and starts a call
 * once every running one has gone past its start. The world is moved to each call's start, and
 * the starting call copies it into the policy's working lists (rs_sim_begin()), which the
 * calls still running share: at every call start the lists are the recording's again (open
 * loop, as between calls), and between two starts every running call sees the others' scans.
 * A call that ended before the next began runs to its end alone: without overlaps the replay
 * is the sequential one.
 *
 * What the trace cannot show: which isolation of one call came between two of another beyond
 * their times (the model's isolations are not the recorded ones: a model call that isolates
 * more often than the recorded one puts the rest at its end), the lru_lock's order within a
 * microsecond, and the list changes of the running calls' allocations between two call starts.
 */
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "rs_grow.h"

/*
 * The coroutines: ucontext stacks of their own (a switch is a few hundred instructions); under
 * AddressSanitizer, whose swapcontext() interceptor warns on stderr at the first use, threads
 * that run only while the driver waits for them (a switch is two futex wakes). The order is the
 * driver's either way, and so are the results.
 */
#if defined(__SANITIZE_ADDRESS__)
#define RS_CO_THREADS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RS_CO_THREADS 1
#endif
#endif

#ifdef RS_CO_THREADS
#include <pthread.h>
#else
#include <ucontext.h>
/* The model's call chain is shallow: a policy's invoke, its passes, the engine. */
#define FIBER_STACK	(256 * 1024)
#endif

struct sched;

/* One invocation of one policy in progress, kept for the next call once it ends. */
struct fiber {
#ifdef RS_CO_THREADS
	pthread_t th;
	pthread_cond_t cv;
	bool go, quit, have_thread;
#else
	ucontext_t uc;
	void *stack;
	bool started;
#endif
	struct sched *sc;
	size_t k;			/* the call's index */
	const struct rs_reclaim_call *c;
	uint64_t next;			/* recorded time of its next isolation */
	size_t nisol;			/* isolations so far */
	bool done;
	int rc;
	struct rs_call_outcome o;
	struct rs_reclaim_acct *acct;	/* [nr_memcg + nr_nodes]: by memcg, then by node */
	struct rs_error err;
};

/* The calls of one policy running at once. */
struct sched {
	const struct rs_policy_ops *pol;
	void *state;
	const struct rs_world *w;
	int nr_memcg, nr_nodes;
#ifdef RS_CO_THREADS
	pthread_mutex_t mu;
	pthread_cond_t main_cv;
	bool main_go, have_mu;
#else
	ucontext_t main;
#endif
	struct fiber **run;		/* running, in call order */
	size_t nrun, caprun;
	struct fiber **pool;		/* finished, for reuse */
	size_t npool, cappool;
	uint64_t horizon;		/* the next call's start: run nothing past it */
};

/* The fiber running; NULL on the driver (and in unit tests calling invoke). */
static __thread struct fiber *cur_fiber;

/* When the model's next isolation happens: the recorded one of the same rank, or the end. */
static uint64_t isolation_time(const struct rs_reclaim_call *c, size_t i)
{
	if (i < c->rec.nr_isolate && c->rec.isolate_ts)
		return c->rec.isolate_ts[i];
	return c->ts_end > c->ts ? c->ts_end : c->ts;
}

/* The running call to resume next: the earliest isolation, the earlier call on a tie. */
static struct fiber *first_ready(const struct sched *sc)
{
	struct fiber *best = NULL;

	for (size_t i = 0; i < sc->nrun; i++) {
		struct fiber *f = sc->run[i];

		if (!best || f->next < best->next)
			best = f;
	}
	return best && best->next <= sc->horizon ? best : NULL;
}

static void fiber_body(struct fiber *f)
{
	struct sched *sc = f->sc;

	f->rc = sc->pol->invoke(sc->state, sc->w, f->c, &f->o, &f->err);
	f->done = true;
}

#ifdef RS_CO_THREADS
/* From a fiber back to the driver; returns when the driver resumes it (unless it is done). */
static void to_main(struct fiber *f)
{
	struct sched *sc = f->sc;

	pthread_mutex_lock(&sc->mu);
	sc->main_go = true;
	pthread_cond_signal(&sc->main_cv);
	while (!f->done && !f->go)
		pthread_cond_wait(&f->cv, &sc->mu);
	f->go = false;
	pthread_mutex_unlock(&sc->mu);
}

static void *fiber_thread(void *arg)
{
	struct fiber *f = arg;
	struct sched *sc = f->sc;

	cur_fiber = f;
	for (;;) {
		pthread_mutex_lock(&sc->mu);
		while (!f->go && !f->quit)
			pthread_cond_wait(&f->cv, &sc->mu);
		f->go = false;
		pthread_mutex_unlock(&sc->mu);
		if (f->quit)
			return NULL;
		fiber_body(f);
		to_main(f);
	}
}

/* Run f until it yields or ends. */
static int resume(struct sched *sc, struct fiber *f, struct rs_error *err)
{
	if (!f->have_thread) {
		if (pthread_cond_init(&f->cv, NULL))
			return rs_error_set(err, "pthread_cond_init failed");
		if (pthread_create(&f->th, NULL, fiber_thread, f)) {
			pthread_cond_destroy(&f->cv);
			return rs_error_set(err, "cannot start a thread for an interleaved call");
		}
		f->have_thread = true;
	}
	pthread_mutex_lock(&sc->mu);
	f->go = true;
	sc->main_go = false;
	pthread_cond_signal(&f->cv);
	while (!sc->main_go)
		pthread_cond_wait(&sc->main_cv, &sc->mu);
	pthread_mutex_unlock(&sc->mu);
	return 0;
}

static int sched_init(struct sched *sc, struct rs_error *err)
{
	if (pthread_mutex_init(&sc->mu, NULL))
		return rs_error_set(err, "pthread_mutex_init failed");
	if (pthread_cond_init(&sc->main_cv, NULL)) {
		pthread_mutex_destroy(&sc->mu);
		return rs_error_set(err, "pthread_cond_init failed");
	}
	sc->have_mu = true;
	return 0;
}

/* Whether a fiber can be resumed: its invocation started and has not ended. */
static bool fiber_live(const struct fiber *f)
{
	return f->have_thread && !f->done;
}

static void fiber_release(struct sched *sc, struct fiber *f)
{
	if (!f->have_thread)
		return;
	pthread_mutex_lock(&sc->mu);
	f->quit = true;
	pthread_cond_signal(&f->cv);
	pthread_mutex_unlock(&sc->mu);
	pthread_join(f->th, NULL);
	pthread_cond_destroy(&f->cv);
}

static void sched_fini(struct sched *sc)
{
	if (sc->have_mu) {
		pthread_cond_destroy(&sc->main_cv);
		pthread_mutex_destroy(&sc->mu);
	}
}
#else
static void to_main(struct fiber *f)
{
	swapcontext(&f->uc, &f->sc->main);
}

static void fiber_main(void)
{
	struct fiber *f = cur_fiber;

	fiber_body(f);
	to_main(f);	/* never resumed: the next call on this fiber makes a new context */
}

/* Run f until it yields or ends. */
static int resume(struct sched *sc, struct fiber *f, struct rs_error *err)
{
	if (!f->stack) {
		f->stack = malloc(FIBER_STACK);
		if (!f->stack)
			return rs_error_set(err, "out of memory");
	}
	if (!f->started) {
		if (getcontext(&f->uc))
			return rs_error_set(err, "getcontext failed");
		f->uc.uc_stack.ss_sp = f->stack;
		f->uc.uc_stack.ss_size = FIBER_STACK;
		f->uc.uc_link = NULL;
		makecontext(&f->uc, fiber_main, 0);
		f->started = true;
	}
	cur_fiber = f;
	swapcontext(&sc->main, &f->uc);
	cur_fiber = NULL;
	return 0;
}

static int sched_init(struct sched *sc, struct rs_error *err)
{
	(void)sc;
	(void)err;
	return 0;
}

static bool fiber_live(const struct fiber *f)
{
	return f->started && !f->done;
}

static void fiber_release(struct sched *sc, struct fiber *f)
{
	(void)sc;
	free(f->stack);
}

static void sched_fini(struct sched *sc)
{
	(void)sc;
}
#endif

uint64_t rs_replay_isolation(void)
{
	struct fiber *f = cur_fiber;

	if (!f)
		return 0;	/* a call that runs alone on the driver, or a unit test */
	f->next = isolation_time(f->c, f->nisol++);
	if (first_ready(f->sc) != f)
		to_main(f);
	return f->next;
}

void rs_replay_inflight(const struct rs_reclaim_call *self, uint64_t ts,
			void (*fn)(void *arg, const struct rs_inflight *f), void *arg)
{
	const struct fiber *cf = cur_fiber;

	if (!cf)
		return;
	for (size_t i = 0; i < cf->sc->nrun; i++) {
		const struct fiber *f = cf->sc->run[i];
		const struct rs_recorded *rec = &f->c->rec;

		if (f->c == self || f->done)
			continue;
		for (size_t j = 0; j < rec->nr_inflight; j++)
			if (rec->inflight[j].begin <= ts && rec->inflight[j].end > ts)
				fn(arg, &rec->inflight[j]);
	}
}

/* Ends every coroutine; the fibers are all finished (rs_replay_run() drains them first). */
static void sched_free(struct sched *sc)
{
	for (size_t i = 0; i < sc->nrun; i++)
		sc->pool[sc->npool++] = sc->run[i];	/* room: pool grows with run */
	for (size_t i = 0; i < sc->npool; i++) {
		fiber_release(sc, sc->pool[i]);
		free(sc->pool[i]->acct);
		free(sc->pool[i]);
	}
	free(sc->run);
	free(sc->pool);
	sched_fini(sc);
}

static struct fiber *fiber_get(struct sched *sc, struct rs_error *err)
{
	struct fiber *f;

	if (RS_GROW(sc->run, sc->caprun, sc->nrun + 1, 8) ||
	    RS_GROW(sc->pool, sc->cappool, sc->npool + sc->nrun + 1, 8)) {
		rs_error_set(err, "out of memory");
		return NULL;
	}
	if (sc->npool)
		return sc->pool[--sc->npool];
	f = calloc(1, sizeof(*f));
	if (f)
		f->acct = malloc(((size_t)sc->nr_memcg + (size_t)sc->nr_nodes) *
				 sizeof(*f->acct));
	if (!f || !f->acct) {
		free(f);
		rs_error_set(err, "out of memory");
		return NULL;
	}
	return f;
}

/* An empty outcome for the fiber's next call, its per-memcg tallies in the fiber's array. */
static void outcome_reset(const struct sched *sc, struct fiber *f)
{
	memset(&f->o, 0, sizeof(f->o));
	memset(f->acct, 0, ((size_t)sc->nr_memcg + (size_t)sc->nr_nodes) * sizeof(*f->acct));
	f->o.memcg = f->acct;
	f->o.node = sc->nr_nodes > 1 ? f->acct + sc->nr_memcg : NULL;
}

/* Add call k to the running ones. */
static int sched_start(struct sched *sc, size_t k, const struct rs_reclaim_call *c,
		       struct rs_error *err)
{
	struct fiber *f = fiber_get(sc, err);

	if (!f)
		return -1;
	f->sc = sc;
	f->k = k;
	f->c = c;
	f->next = c->ts;
	f->nisol = 0;
	f->done = false;
#ifndef RS_CO_THREADS
	f->started = false;
#endif
	f->rc = 0;
	outcome_reset(sc, f);
	sc->run[sc->nrun++] = f;
	return 0;
}

static int result_init(struct rs_replay_result *r, const struct rs_policy_ops *ops,
		       const struct rs_world_info *wi, bool keep_calls, struct rs_error *err)
{
	memset(r, 0, sizeof(*r));
	r->policy = ops;
	r->prio_lowest = -1;
	r->nr_memcg = wi->nr_memcg;
	r->memcg = calloc((size_t)wi->nr_memcg, sizeof(*r->memcg));
	if (!r->memcg)
		return rs_error_set(err, "out of memory");
	if (wi->nr_nodes > 1) {
		r->nr_nodes = wi->nr_nodes;
		r->node = calloc((size_t)wi->nr_nodes, sizeof(*r->node));
		if (!r->node)
			return rs_error_set(err, "out of memory");
	}
	if (keep_calls && wi->nr_calls) {
		r->call = calloc(wi->nr_calls, sizeof(*r->call));
		if (!r->call)
			return rs_error_set(err, "out of memory");
	}
	return 0;
}

void rs_replay_results_free(struct rs_replay_result *res, int n)
{
	if (!res)
		return;
	for (int i = 0; i < n; i++) {
		free(res[i].memcg);
		free(res[i].node);
		free(res[i].call);
	}
	free(res);
}

static void note_prio(struct rs_replay_result *r, int prio)
{
	if (prio < 0 || prio > RS_DEF_PRIORITY)
		return;
	r->calls_at_prio[prio]++;
	if (r->prio_lowest < 0 || prio < r->prio_lowest)
		r->prio_lowest = prio;
}

static uint64_t wanted(const struct rs_reclaim_call *c)
{
	if (c->ctx == RS_CALL_KSWAPD)
		return c->nr_to_reclaim;
	return c->nr_to_reclaim > RS_SWAP_CLUSTER_MAX ? c->nr_to_reclaim : RS_SWAP_CLUSTER_MAX;
}

/* total += a, counter by counter */
static void acct_add(struct rs_reclaim_acct *total, const struct rs_reclaim_acct *a)
{
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		total->scanned[l] += a->scanned[l];
		total->reclaimed[l] += a->reclaimed[l];
	}
	total->swapped_out += a->swapped_out;
	total->soft_scanned += a->soft_scanned;
	total->soft_reclaimed += a->soft_reclaimed;
	total->scanned_no_swap += a->scanned_no_swap;
}

static void add_outcome(struct rs_replay_result *r, const struct rs_call_outcome *o,
			const struct rs_reclaim_call *c, size_t idx, bool keep)
{
	uint64_t got = 0;

	r->calls++;
	r->rounds += o->rounds;
	acct_add(&r->acct, &o->acct);
	for (int l = 0; l < RS_NR_EVICTABLE; l++)
		got += o->acct.reclaimed[l];
	for (int k = 0; k < RS_RATE_SRC_NR; k++)
		r->reclaimed_by_src[k] += o->reclaimed_by_src[k];
	if (got < wanted(c))
		r->calls_short++;
	note_prio(r, o->prio_lowest);
	for (int m = 0; m < r->nr_memcg; m++)
		acct_add(&r->memcg[m], &o->memcg[m]);
	for (int nid = 0; r->node && o->node && c->ctx != RS_CALL_KSWAPD && nid < r->nr_nodes;
	     nid++)
		acct_add(&r->node[nid], &o->node[nid]);
	if (keep) {
		/* by the call's index: interleaved calls end out of order */
		r->call[idx] = *o;
		r->call[idx].memcg = NULL;
		r->call[idx].node = NULL;
		r->nr_calls_kept++;
	}
}

/* A finished call's fiber leaves the running ones (their order kept) for the pool. */
static void sched_retire(struct sched *sc, struct fiber *f)
{
	for (size_t i = 0; i < sc->nrun; i++) {
		if (sc->run[i] == f) {
			memmove(&sc->run[i], &sc->run[i + 1], (sc->nrun - i - 1) * sizeof(*sc->run));
			break;
		}
	}
	sc->nrun--;
	sc->pool[sc->npool++] = f;
}

/*
 * Resume the running calls, earliest isolation first, until every one is past the horizon;
 * tally each that ends.
 */
static int sched_run(struct sched *sc, struct rs_replay_result *res, bool keep,
		     struct rs_error *err)
{
	struct fiber *f;

	while ((f = first_ready(sc))) {
		if (resume(sc, f, err))
			return -1;
		if (!f->done)
			continue;
		if (f->rc) {
			*err = f->err;
			return rs_error_prefix(err, "%s: call %zu at %llu ns: ", sc->pol->name, f->k,
					       (unsigned long long)f->c->ts);
		}
		add_outcome(res, &f->o, f->c, f->k, keep);
		sched_retire(sc, f);
	}
	return 0;
}

/* After an error: run what was started to its end (a thread must not be left mid-call). */
static void sched_drain(struct sched *sc)
{
	struct fiber *f;

	sc->horizon = UINT64_MAX;
	while ((f = first_ready(sc))) {
		struct rs_error ignored;

		if (fiber_live(f) && resume(sc, f, &ignored))
			break;
		if (!fiber_live(f))
			sched_retire(sc, f);
	}
}

/* The latest moment the call can isolate at: it runs alone when that is before the next call. */
static uint64_t last_isolation(const struct rs_reclaim_call *c)
{
	uint64_t t = isolation_time(c, SIZE_MAX);

	if (c->rec.nr_isolate && c->rec.isolate_ts && c->rec.isolate_ts[c->rec.nr_isolate - 1] > t)
		t = c->rec.isolate_ts[c->rec.nr_isolate - 1];
	return t;
}

/* Call k alone, on this thread: nothing else is running and it ends before the next begins. */
static int run_alone(struct sched *sc, struct rs_replay_result *res, size_t k,
		     const struct rs_reclaim_call *c, bool keep, struct rs_error *err)
{
	struct fiber *f = fiber_get(sc, err);
	int rc;

	if (!f)
		return -1;
	outcome_reset(sc, f);
	rc = sc->pol->invoke(sc->state, sc->w, c, &f->o, err);
	sc->pool[sc->npool++] = f;
	if (rc)
		return rs_error_prefix(err, "%s: call %zu at %llu ns: ", sc->pol->name, k,
				       (unsigned long long)c->ts);
	add_outcome(res, &f->o, c, k, keep);
	return 0;
}

int rs_replay_run(struct rs_world *w, const struct rs_policy_ops *const *pol, int n,
		  const struct rs_replay_opts *opts, struct rs_replay_result **out,
		  struct rs_error *err)
{
	const struct rs_world_info *wi = rs_world_info(w);
	bool keep = opts && opts->keep_calls;
	struct rs_replay_result *res = NULL;
	struct sched *sc = NULL;
	int ret = -1, inited = 0;

	if (!wi->have_sizes)
		return rs_error_set(err, "no LRU sizes: the trace has no memcg_stat/node_stat "
				    "snapshots or lruvec deltas, so no policy can be replayed");
	if (n < 1)
		return rs_error_set(err, "no policy to replay");
	res = calloc((size_t)n, sizeof(*res));
	sc = calloc((size_t)n, sizeof(*sc));
	if (!res || !sc) {
		rs_error_set(err, "out of memory");
		goto out;
	}
	for (int i = 0; i < n; i++)
		if (result_init(&res[i], pol[i], wi, keep, err))
			goto out;
	for (; inited < n; inited++) {
		sc[inited].pol = pol[inited];
		sc[inited].w = w;
		sc[inited].nr_memcg = wi->nr_memcg;
		sc[inited].nr_nodes = wi->nr_nodes;
		if (sched_init(&sc[inited], err))
			goto out;
		if (pol[inited]->init(w, &sc[inited].state, err)) {
			rs_error_prefix(err, "%s: ", pol[inited]->name);
			goto out;
		}
	}
	rs_world_rewind(w);
	for (size_t k = 0; k < wi->nr_calls; k++) {
		const struct rs_reclaim_call *c = rs_world_call(w, k);
		uint64_t horizon = k + 1 < wi->nr_calls ? rs_world_call(w, k + 1)->ts : UINT64_MAX;

		/* every running call is past c->ts: the world there is the one they read */
		rs_world_advance(w, c->ts);
		for (int i = 0; i < n; i++) {
			if (!sc[i].nrun && last_isolation(c) <= horizon) {
				if (run_alone(&sc[i], &res[i], k, c, keep, err))
					goto out;
				continue;
			}
			if (sched_start(&sc[i], k, c, err))
				goto out;
			sc[i].horizon = horizon;
			if (sched_run(&sc[i], &res[i], keep, err))
				goto out;
		}
	}
	*out = res;
	res = NULL;
	ret = 0;
out:
	for (int i = 0; sc && i < n; i++) {
		sched_drain(&sc[i]);
		if (i < inited)
			pol[i]->free(sc[i].state);
		sched_free(&sc[i]);
	}
	free(sc);
	rs_replay_results_free(res, n);
	return ret;
}

int rs_replay_recorded(const struct rs_world *w, struct rs_replay_result **out,
		       struct rs_error *err)
{
	const struct rs_world_info *wi = rs_world_info(w);
	struct rs_replay_result *r = calloc(1, sizeof(*r));
	struct rs_reclaim_acct *acct = calloc((size_t)wi->nr_memcg + (size_t)wi->nr_nodes + 1,
					      sizeof(*acct));
	struct rs_reclaim_acct *nacct = acct ? acct + wi->nr_memcg + 1 : NULL;

	if (!r || !acct) {
		free(r);
		free(acct);
		return rs_error_set(err, "out of memory");
	}
	if (result_init(r, NULL, wi, false, err)) {
		rs_replay_results_free(r, 1);
		free(acct);
		return -1;
	}
	/* each recorded call as the outcome a policy would give, tallied the same way */
	for (size_t k = 0; k < wi->nr_calls; k++) {
		const struct rs_reclaim_call *c = rs_world_call(w, k);
		const struct rs_recorded *rec = &c->rec;
		struct rs_call_outcome o = {
			.acct = { .swapped_out = rec->reclaimed[RS_LRU_INACTIVE_ANON] +
						 rec->reclaimed[RS_LRU_ACTIVE_ANON],
				  .soft_scanned = rec->soft_scanned,
				  .soft_reclaimed = rec->soft_reclaimed },
			.rounds = rec->rounds, .prio_lowest = rec->prio_lowest, .memcg = acct,
			.node = wi->nr_nodes > 1 ? nacct : NULL,
		};

		if (!rec->have)
			continue;
		memcpy(o.acct.scanned, rec->scanned, sizeof(o.acct.scanned));
		memcpy(o.acct.reclaimed, rec->reclaimed, sizeof(o.acct.reclaimed));
		for (size_t j = 0; j < rec->nr_memcg; j++) {
			const struct rs_memcg_lists *ml = &rec->memcg[j];
			struct rs_reclaim_acct *t = &acct[ml->memcg];

			for (int l = 0; l < RS_NR_EVICTABLE; l++) {
				t->scanned[l] += ml->scanned[l];
				t->reclaimed[l] += ml->reclaimed[l];
			}
			t->swapped_out += ml->reclaimed[RS_LRU_INACTIVE_ANON] +
					  ml->reclaimed[RS_LRU_ACTIVE_ANON];
			if (o.node && ml->nid >= 0 && ml->nid < wi->nr_nodes)
				for (int l = 0; l < RS_NR_EVICTABLE; l++) {
					o.node[ml->nid].scanned[l] += ml->scanned[l];
					o.node[ml->nid].reclaimed[l] += ml->reclaimed[l];
				}
		}
		add_outcome(r, &o, c, k, false);
		for (size_t j = 0; j < rec->nr_memcg; j++)
			memset(&acct[rec->memcg[j].memcg], 0, sizeof(*acct));
		memset(nacct, 0, (size_t)wi->nr_nodes * sizeof(*nacct));
	}
	free(acct);
	*out = r;
	return 0;
}
