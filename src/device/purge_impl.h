/* Shared between the purge methods; not part of the device API. */
#ifndef SSDBENCH_DEVICE_PURGE_IMPL_H
#define SSDBENCH_DEVICE_PURGE_IMPL_H

#include "device/purge.h"

uint64_t purge_now_ns(void);
/* Sleep `ms`, then report progress; the common pacing of the waits. */
void purge_tick(const struct purge_request *r, const char *what,
		double fraction, unsigned ms);

int purge_nvme_format(int fd, const struct device_facts *f, bool crypto,
		      int lbaf, uint64_t timeout_ns, struct purge_result *res,
		      struct sb_err *e);
int purge_nvme_sanitize(int fd, bool crypto, const struct purge_request *r,
			uint64_t timeout_ns, struct purge_result *res,
			struct sb_err *e);
int purge_ata_secure_erase(int fd, uint64_t timeout_ns,
			   struct purge_result *res,
			   struct sb_err *e);
int purge_discard(int fd, const struct device_facts *f,
		  const struct purge_request *r, uint64_t timeout_ns,
		  struct purge_result *res, struct sb_err *e);

#endif
