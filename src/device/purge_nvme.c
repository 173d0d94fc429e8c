/*
 * NVMe purges.  Format NVM blocks in the ioctl until the drive finishes
 * (so its timeout is the wait); Sanitize returns at once and runs in the
 * background, so ssdbench polls the Sanitize Status log until it ends.
 * A sanitize cannot be stopped once started, even by a reset.
 */
#include "device/purge_impl.h"

#include <stdio.h>

static uint32_t timeout_ms(uint64_t ns)
{
	uint64_t ms = ns / 1000000;
	return ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

int purge_nvme_format(int fd, const struct device_facts *f, bool crypto,
		      int lbaf, uint64_t timeout_ns, struct purge_result *res,
		      struct sb_err *e)
{
	const struct nvme_ns_info *ns = &f->nvme_ns;
	unsigned target = lbaf >= 0 ? (unsigned)lbaf : ns->current_lbaf;
	const struct nvme_lbaf *l = &ns->lbaf[target];
	if (nvme_format(fd, ns->nsid, target, crypto ? 2 : 1,
			timeout_ms(timeout_ns), e))
		return -1;
	snprintf(res->detail, sizeof res->detail,
		 "NVMe Format NVM, %s erase, namespace %u into LBA format %u "
		 "(%u + %u bytes)%s", crypto ? "cryptographic" : "user data",
		 ns->nsid, target, l->data_size, l->metadata_size,
		 (f->nvme_ctrl.fna & NVME_FNA_FORMAT_ALL)
		 ? "; the drive formats every namespace together" : "");
	return 0;
}

int purge_nvme_sanitize(int fd, bool crypto, const struct purge_request *r,
			uint64_t timeout_ns, struct purge_result *res,
			struct sb_err *e)
{
	const char *what = crypto ? "sanitize (crypto erase)"
				  : "sanitize (block erase)";
	uint8_t page[NVME_LOG_SIZE];
	struct nvme_sanitize_status st;
	uint64_t start = purge_now_ns();

	if (nvme_sanitize(fd, crypto ? 4 : 2, e))
		return -1;
	for (;;) {
		purge_tick(r, what, -1, 1000);
		if (nvme_get_log(fd, NVME_NSID_ALL, NVME_LOG_SANITIZE, page,
				 sizeof page, e) ||
		    nvme_parse_sanitize_status(page, sizeof page, &st, e))
			return sb_err_wrap(e, "waiting for the sanitize");
		uint64_t waited = purge_now_ns() - start;
		if (st.state == 1 || st.state == 4)
			break;
		if (st.state == 3)
			return sb_errf(e, "the sanitize failed; the drive now "
				       "accepts only another sanitize (restricted "
				       "failure mode): run the purge again");
		if (st.state == 0 && waited > 10000000000ull)
			return sb_errf(e, "the drive accepted the sanitize but "
				       "its status log never showed it running");
		if (st.state == 2 && r->progress)
			r->progress(r->ctx, what, st.progress);
		if (waited > timeout_ns)
			return sb_errf(e, "the sanitize is still running after "
				       "%llu s (%.0f%% done); it cannot be "
				       "stopped and will finish on its own: "
				       "check later with 'ssdbench info'",
				       (unsigned long long)(waited / 1000000000),
				       st.progress * 100);
	}
	snprintf(res->detail, sizeof res->detail,
		 "NVMe Sanitize, %s, whole controller (every namespace)%s",
		 crypto ? "cryptographic erase" : "block erase",
		 st.state == 4 ? "; the drive did not deallocate afterwards"
			       : "");
	return 0;
}
