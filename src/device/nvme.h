/*
 * NVMe: the pages ssdbench reads (Identify Controller, Identify Namespace,
 * SMART / Health log 02h, OCP datacenter SMART log C0h, Sanitize Status log
 * 81h), their decoded forms, and the admin commands that fetch them or purge
 * the drive.  Offsets and bit positions follow the NVM Express Base
 * Specification 2.0 and the OCP Datacenter NVMe SSD Specification 2.0;
 * the parsers are pure so they can be tested on pages built from the specs.
 */
#ifndef SSDBENCH_DEVICE_NVME_H
#define SSDBENCH_DEVICE_NVME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define NVME_IDENTIFY_SIZE 4096
#define NVME_LOG_SIZE 512
#define NVME_MAX_LBAF 64
#define NVME_MAX_PSD 32

/* OACS: optional admin commands. */
#define NVME_OACS_SECURITY (1u << 0)
#define NVME_OACS_FORMAT (1u << 1)
#define NVME_OACS_FIRMWARE (1u << 2)
#define NVME_OACS_NS_MGMT (1u << 3)
/* FNA: format and secure-erase scope and abilities. */
#define NVME_FNA_FORMAT_ALL (1u << 0)
#define NVME_FNA_ERASE_ALL (1u << 1)
#define NVME_FNA_CRYPTO (1u << 2)
/* SANICAP: sanitize operations supported. */
#define NVME_SANICAP_CRYPTO (1u << 0)
#define NVME_SANICAP_BLOCK (1u << 1)
#define NVME_SANICAP_OVERWRITE (1u << 2)
/* ONCS: optional NVM commands. */
#define NVME_ONCS_DSM (1u << 2)
/* LPA: log page attributes. */
#define NVME_LPA_EXTENDED (1u << 2)

struct nvme_power_state {
	double max_power_w;
	/* Negative when the drive does not report it (IPS / APS = 00b). */
	double idle_power_w;
	double active_power_w;
	bool non_operational;
	uint32_t entry_latency_us;
	uint32_t exit_latency_us;
};

struct nvme_ctrl_info {
	uint16_t vid, ssvid;
	char serial[21];
	char model[41];
	char firmware[9];
	uint32_t version;		/* VER: major << 16 | minor << 8 | tertiary */
	uint8_t mdts;
	uint16_t oacs;
	uint8_t lpa;
	uint16_t wctemp_k, cctemp_k;	/* 0: not reported */
	uint64_t tnvmcap, unvmcap;	/* bytes, saturated at 2^64 - 1 */
	uint32_t sanicap;
	uint32_t nn;
	uint16_t oncs;
	uint8_t fna;
	bool vwc_present;
	unsigned npower_states;		/* NPSS + 1 */
	struct nvme_power_state ps[NVME_MAX_PSD];
};

struct nvme_lbaf {
	uint32_t data_size;		/* bytes, 2^LBADS */
	uint16_t metadata_size;
	uint8_t rel_perf;		/* 0 best, 1 better, 2 good, 3 degraded */
};

struct nvme_ns_info {
	uint32_t nsid;
	uint64_t nsze, ncap, nuse;	/* logical blocks */
	unsigned nlbaf;			/* NLBAF + 1 */
	unsigned current_lbaf;
	bool metadata_extended;		/* metadata at the end of each block */
	struct nvme_lbaf lbaf[NVME_MAX_LBAF];
};

struct nvme_smart {
	uint8_t critical_warning;
	uint16_t temperature_k;
	uint8_t available_spare, spare_threshold, percent_used;
	/* Data units are thousands of 512-byte units, as in the spec. */
	uint64_t data_units_read, data_units_written;
	uint64_t host_read_cmds, host_write_cmds;
	uint64_t busy_minutes, power_cycles, power_on_hours;
	uint64_t unsafe_shutdowns, media_errors, error_log_entries;
	uint32_t warning_temp_minutes, critical_temp_minutes;
	uint16_t sensor_k[8];		/* 0: sensor not implemented */
};

/* The fields of the OCP log that matter for a benchmark. */
struct nvme_ocp_smart {
	uint64_t media_bytes_written, media_bytes_read;
	uint64_t bad_user_blocks, bad_system_blocks;	/* raw counts */
	uint8_t throttle_events, throttle_status;
	uint16_t log_version;
};

struct nvme_sanitize_status {
	double progress;		/* 0..1 of the running sanitize */
	/* SSTAT bits 2:0: 0 never, 1 done, 2 running, 3 failed, 4 done
	   without deallocation. */
	uint8_t state;
	uint32_t est_block_s, est_crypto_s;	/* 0xffffffff: unknown */
};

/* --- parsers (pure) -------------------------------------------------- */

int nvme_parse_id_ctrl(const uint8_t *page, size_t len,
		       struct nvme_ctrl_info *out, struct sb_err *e);
int nvme_parse_id_ns(const uint8_t *page, size_t len,
		     struct nvme_ns_info *out, struct sb_err *e);
int nvme_parse_smart(const uint8_t *page, size_t len, struct nvme_smart *out,
		     struct sb_err *e);
/* Fails (cleanly) when the page lacks the OCP GUID: a vendor-specific C0h. */
int nvme_parse_ocp_smart(const uint8_t *page, size_t len,
			 struct nvme_ocp_smart *out, struct sb_err *e);
int nvme_parse_sanitize_status(const uint8_t *page, size_t len,
			       struct nvme_sanitize_status *out,
			       struct sb_err *e);

/* "1.4.0" for VER, or "" when the controller leaves VER 0 (NVMe 1.0). */
void nvme_version_string(uint32_t ver, char *buf, size_t len);
/* "best", "better", "good", "degraded". */
const char *nvme_rel_perf_name(uint8_t rp);
/* Bytes the SMART log's data-unit counters stand for. */
uint64_t nvme_data_units_bytes(uint64_t units);

/* --- admin commands (src/device/nvme_cmd.c) --------------------------- */

/*
 * The namespace ID of an open NVMe namespace block device, or -1 with a
 * "not NVMe" message.  Drivers say "not mine" with ENOTTY (zram, files) or
 * EINVAL (loop); both mean the same here, and errnum keeps which.
 */
int nvme_get_nsid(int fd, uint32_t *nsid, struct sb_err *e);
int nvme_identify(int fd, uint32_t nsid, uint8_t cns, uint8_t *page,
		  struct sb_err *e);
int nvme_get_log(int fd, uint32_t nsid, uint8_t lid, uint8_t *buf,
		 uint32_t len, struct sb_err *e);
/* Format NVM: `ses` 0 none, 1 user data erase, 2 cryptographic erase. */
int nvme_format(int fd, uint32_t nsid, unsigned lbaf, unsigned ses,
		uint32_t timeout_ms, struct sb_err *e);
/* Sanitize: `sanact` 2 block erase, 4 crypto erase.  Returns at once; poll
   the Sanitize Status log for the outcome. */
int nvme_sanitize(int fd, unsigned sanact, struct sb_err *e);

#define NVME_CNS_NS 0x00
#define NVME_CNS_CTRL 0x01
#define NVME_LOG_SMART 0x02
#define NVME_LOG_SANITIZE 0x81
#define NVME_LOG_OCP_SMART 0xc0
#define NVME_NSID_ALL 0xffffffffu

#endif
