/*
 * Writing what a workload measured: its row, checkpointed totals and
 * histograms, and the interval samples.  Samples are the hot path (ten a
 * second per workload for hours): one cached INSERT each, inside the
 * pending transaction, nothing kept in memory here.
 */
#include <stdlib.h>

#include "store/store_impl.h"

int store_workload_begin(struct store *s, int64_t run_id, int64_t step_id,
			 uint32_t index, const char *name,
			 const char *spec_json, int64_t *workload_id,
			 struct sb_err *e)
{
	char now[32];
	if (!name || !*name)
		return sb_errf(e, "recording a workload: no name given");
	if (store_tx_ensure(s, e))
		return -1;
	sqlite3_stmt *st = store_stmt(s, ST_WORKLOAD_INSERT, e);
	if (!st)
		return -1;
	store_utc_now(now);
	store_bind_i64(s, st, 1, run_id);
	store_bind_id(s, st, 2, step_id);
	store_bind_i64(s, st, 3, index);
	store_bind_text(s, st, 4, name);
	store_bind_text(s, st, 5, spec_json);
	store_bind_text(s, st, 6, now);
	if (store_step_done(s, st, "recording a workload", e))
		return sb_err_wrap(e, "workload '%s' of run %lld", name,
				   (long long)run_id);
	*workload_id = sqlite3_last_insert_rowid(s->db);
	return store_commit(s, e);
}

/* Encode into the store's reusable buffer (a histogram spans at most a few
   hundred KiB encoded; usually a few KiB). */
static int encode_hist(struct store *s, const struct lat_hist *h, size_t *len,
		       struct sb_err *e)
{
	size_t need = hist_encoded_max(h);
	if (need > s->hist_buf_len) {
		uint8_t *p = realloc(s->hist_buf, need);
		if (!p)
			return sb_errf(e, "encoding a histogram: out of memory");
		s->hist_buf = p;
		s->hist_buf_len = need;
	}
	*len = hist_encode(h, s->hist_buf);
	return 0;
}

static int put_hist(struct store *s, int64_t workload_id, enum io_dir d,
		    enum hist_kind kind, const struct lat_hist *h, bool final,
		    struct sb_err *e)
{
	sqlite3_stmt *st;
	size_t len = 0;
	/* service latency in histograms, the others in arrival_histograms */
	const char *akind = kind == HIST_SERVICE ? NULL : hist_kind_name(kind);
	if (!h || h->count == 0) {
		/* Nothing measured in this direction: no row, as if never set. */
		if (!(st = store_stmt(s, akind ? ST_AHIST_DELETE : ST_HIST_DELETE, e)))
			return -1;
		store_bind_i64(s, st, 1, workload_id);
		store_bind_text(s, st, 2, io_dir_name(d));
		if (akind)
			store_bind_text(s, st, 9, akind);
		return store_step_done(s, st, "clearing a histogram", e);
	}
	if (encode_hist(s, h, &len, e) ||
	    !(st = store_stmt(s, akind ? ST_AHIST_UPSERT : ST_HIST_UPSERT, e)))
		return -1;
	store_bind_i64(s, st, 1, workload_id);
	store_bind_text(s, st, 2, io_dir_name(d));
	if (akind)
		store_bind_text(s, st, 9, akind);
	store_bind_i64(s, st, 3, final);
	store_bind_i64(s, st, 4, (int64_t)h->count);
	store_bind_i64(s, st, 5, (int64_t)h->min);
	store_bind_i64(s, st, 6, (int64_t)h->max);
	store_bind_i64(s, st, 7, (int64_t)h->sum);
	store_bind_blob(s, st, 8, s->hist_buf, len);
	int rc = store_step_done(s, st, "recording a histogram", e);
	sqlite3_clear_bindings(st);	/* the buffer may move before next use */
	return rc;
}

int store_workload_totals(struct store *s, int64_t workload_id,
			  const struct store_totals *t,
			  struct lat_hist *const hist[DIR_COUNT], bool final,
			  struct sb_err *e)
{
	if (store_tx_ensure(s, e))
		return -1;
	sqlite3_stmt *st = store_stmt(s, ST_WORKLOAD_TOTALS, e);
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, workload_id);
	for (int d = 0; d < DIR_COUNT; d++) {
		store_bind_i64(s, st, 2 + d, (int64_t)t->bytes[d]);
		store_bind_i64(s, st, 5 + d, (int64_t)t->ios[d]);
	}
	store_bind_i64(s, st, 8, (int64_t)t->measured_ns);
	store_bind_i64(s, st, 9, final);
	store_bind_i64(s, st, 10, (int64_t)t->driver_stalls);
	store_bind_i64(s, st, 11, (int64_t)t->driver_stall_ns);
	store_bind_text(s, st, 12, t->way != IO_WAY_UNKNOWN ? io_way_name(t->way) : NULL);
	if (t->sim_known)
		store_bind_i64(s, st, 13, (int64_t)t->ios_simulated);
	else
		store_bind_text(s, st, 13, NULL);
	if (store_step_done(s, st, "recording totals", e))
		return sb_err_wrap(e, "workload %lld", (long long)workload_id);
	if (sqlite3_changes(s->db) == 0)
		return sb_errf(e, "recording totals: no workload with id %lld in %s",
			       (long long)workload_id, s->path);
	for (int d = 0; d < DIR_COUNT; d++)
		if (put_hist(s, workload_id, (enum io_dir)d, HIST_SERVICE,
			     hist ? hist[d] : NULL, final, e) ||
		    /* a closed loop has none, and never had */
		    (t->response[d] && put_hist(s, workload_id, (enum io_dir)d,
						HIST_RESPONSE, t->response[d], final, e)) ||
		    (t->lateness[d] && put_hist(s, workload_id, (enum io_dir)d,
						HIST_LATENESS, t->lateness[d], final, e)))
			return sb_err_wrap(e, "workload %lld, %s",
					   (long long)workload_id,
					   io_dir_name((enum io_dir)d));
	return final ? store_commit(s, e) : 0;
}

int store_workload_finish(struct store *s, int64_t workload_id,
			  const char *status, const char *mode,
			  struct sb_err *e)
{
	char now[32];
	if (!store_status_valid(status, false))
		return sb_errf(e, "finishing workload %lld: unknown status '%s'",
			       (long long)workload_id, status ? status : "(null)");
	if (store_tx_ensure(s, e))
		return -1;
	sqlite3_stmt *st = store_stmt(s, ST_WORKLOAD_FINISH, e);
	if (!st)
		return -1;
	store_utc_now(now);
	store_bind_i64(s, st, 1, workload_id);
	store_bind_text(s, st, 2, status);
	store_bind_text(s, st, 3, mode);
	store_bind_text(s, st, 4, now);
	if (store_step_done(s, st, "finishing a workload", e))
		return -1;
	if (sqlite3_changes(s->db) == 0)
		return sb_errf(e, "finishing: no workload with id %lld in %s",
			       (long long)workload_id, s->path);
	return store_commit(s, e);
}

/* Sample smp's SAMPLE_PARAMS parameters, in the statements' order. */
static void sample_params(int64_t workload_id, const struct interval_sample *smp,
			  int64_t *v)
{
	v[0] = workload_id;
	v[1] = (int64_t)smp->index;
	v[2] = (int64_t)smp->t_start_ns;
	v[3] = (int64_t)smp->t_end_ns;
	v[4] = smp->ramp;
	for (int d = 0; d < DIR_COUNT; d++) {
		const struct interval_dir *x = &smp->dir[d];
		int64_t *c = v + 5 + 6 * d;
		c[0] = (int64_t)x->bytes;
		c[1] = (int64_t)x->ios;
		c[2] = (int64_t)x->lat_p50_ns;
		c[3] = (int64_t)x->lat_p99_ns;
		c[4] = (int64_t)x->lat_max_ns;
		c[5] = (int64_t)x->lat_sum_ns;
	}
}

/* One sample, in a statement of its own. */
static int insert_sample(struct store *s, int64_t workload_id,
			 const struct interval_sample *smp, struct sb_err *e)
{
	/* every parameter bound (samples_round_trip: no stale value) */
	sqlite3_stmt *st = store_stmt_rebind(s, ST_SAMPLE_INSERT, e);
	if (!st)
		return -1;
	int64_t v[SAMPLE_PARAMS];
	sample_params(workload_id, smp, v);
	for (int k = 0; k < SAMPLE_PARAMS; k++)
		store_bind_i64(s, st, k + 1, v[k]);
	if (store_step_done(s, st, "recording a sample", e))
		return sb_err_wrap(e, "sample %llu of workload %lld",
				   (unsigned long long)smp->index,
				   (long long)workload_id);
	return 0;
}

/*
 * A full batch in one statement; 1 when it failed as a whole (a
 * constraint: no row of it is in), to be told row by row.  Every
 * parameter ends bound to this batch's value: bound now, or still
 * holding it from the last batch (batch_vals).
 */
static int insert_batch(struct store *s, struct sb_err *e)
{
	sqlite3_stmt *st = store_stmt_rebind(s, ST_SAMPLE_INSERT_BATCH, e);
	if (!st)
		return -1;
	int64_t v[SAMPLE_PARAMS];
	for (uint32_t k = 0; k < SAMPLE_BATCH; k++) {
		sample_params(s->pend_wid, &s->pend[k], v);
		int64_t *held = s->batch_vals + SAMPLE_PARAMS * k;
		for (int c = 0; c < SAMPLE_PARAMS; c++) {
			if (s->batch_held && held[c] == v[c])
				continue;
			store_bind_i64(s, st, SAMPLE_PARAMS * (int)k + c + 1, v[c]);
			held[c] = v[c];
		}
	}
	/* a failed bind left its parameter unknown: all again next time */
	s->batch_held = s->bind_rc == SQLITE_OK;
	return store_step_done(s, st, "recording samples", e) ? 1 : 0;
}

int store_samples_flush(struct store *s, struct sb_err *e)
{
	uint32_t n = s->npend;
	if (!n)
		return 0;
	s->npend = 0;
	int rc = n == SAMPLE_BATCH ? insert_batch(s, e) : 1;
	if (rc <= 0) {
		s->have_last &= rc == 0;
		return rc;
	}
	/* One by one: the rows before a failing one go in, and the error
	   names the sample, as if each had been written at its own call. */
	rc = 0;
	for (uint32_t k = 0; k < n; k++) {
		struct sb_err ek;
		if (insert_sample(s, s->pend_wid, &s->pend[k], &ek) && !rc) {
			*e = ek;
			rc = -1;
		}
	}
	s->have_last &= rc == 0;
	return rc;
}

int store_add_sample(struct store *s, int64_t workload_id,
		     const struct interval_sample *smp, struct sb_err *e)
{
	if (store_tx_ensure(s, e))
		return -1;
	bool continues = s->have_last && workload_id == s->last_wid &&
			 smp->index == s->last_idx + 1;
	if (continues) {
		s->pend[s->npend++] = *smp;
		s->pend_wid = workload_id;
	} else if (store_samples_flush(s, e) || insert_sample(s, workload_id, smp, e)) {
		s->have_last = false;
		return -1;
	}
	s->have_last = true;
	s->last_wid = workload_id;
	s->last_idx = smp->index;
	if (s->npend == SAMPLE_BATCH && store_samples_flush(s, e))
		return -1;
	return 0;
}
