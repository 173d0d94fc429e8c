/*
 * Returning a target to fresh-out-of-box (the methodology's purge step).
 * The method is chosen from what the device reports it supports, run to
 * completion with a long timeout, recorded, and followed by a check that
 * the device still answers.  Every method destroys all data on the target; safety_check()
 * runs first and refuses mounted, held or root devices.
 */
#ifndef SSDBENCH_DEVICE_PURGE_H
#define SSDBENCH_DEVICE_PURGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/json.h"
#include "device/facts.h"

enum purge_method {
	PURGE_AUTO,
	PURGE_FORMAT,			/* NVMe Format NVM, user data erase */
	PURGE_FORMAT_CRYPTO,		/* NVMe Format NVM, crypto erase */
	PURGE_SANITIZE_BLOCK,		/* NVMe Sanitize, block erase */
	PURGE_SANITIZE_CRYPTO,		/* NVMe Sanitize, crypto erase */
	PURGE_ATA_SECURE_ERASE,		/* ATA SECURITY ERASE UNIT */
	PURGE_DISCARD,			/* BLKDISCARD over the whole device */
	PURGE_RECREATE_FILE,		/* a regular file: unlink + recreate */
	PURGE_METHOD_COUNT
};

/* The name users type and the store records ("sanitize-block"). */
const char *purge_method_name(enum purge_method m);
/* Accepts the names of purge_method_name() except "recreate-file". */
int purge_method_parse(const char *s, enum purge_method *m, struct sb_err *e);

/* Which methods the target supports, from its facts. */
void purge_supported(const struct device_facts *f,
		     bool out[PURGE_METHOD_COUNT]);
/* The same as a list in the order auto tries them; returns the count. */
size_t purge_supported_ordered(const struct device_facts *f,
			       enum purge_method out[PURGE_METHOD_COUNT]);

/*
 * The method that will run: `requested` when the target supports it,
 * otherwise -1 with the reason and the supported list.  PURGE_AUTO picks
 * the first supported of: format, format-crypto, sanitize-block,
 * sanitize-crypto, ata-secure-erase, discard (a file: recreate-file).
 * `lbaf` >= 0 asks for a new LBA format and limits the choice to format
 * methods.  Pure: decided from the facts alone.
 */
int purge_choose(const struct device_facts *f, enum purge_method requested,
		 int lbaf, enum purge_method *chosen, struct sb_err *e);

struct purge_request {
	const char *path;
	enum purge_method method;
	int lbaf;			/* -1: keep the current format */
	bool destroy_data;		/* the user said so; required */
	uint64_t timeout_ns;		/* 0: PURGE_DEFAULT_TIMEOUT_S */
	/* Called about once a second during long operations; fraction in
	   0..1, or negative when the device gives no progress. */
	void (*progress)(void *ctx, const char *what, double fraction);
	void *ctx;
};

#define PURGE_DEFAULT_TIMEOUT_S (4 * 3600)

struct purge_result {
	enum purge_method method;	/* what ran */
	char detail[512];		/* what exactly, for people */
	uint64_t duration_ns;
	int lbaf;			/* format in use afterwards, -1 n/a */
	uint32_t logical_block_size;	/* afterwards */
	char verify[256];		/* how the device was seen to answer */
};

int purge_run(const struct purge_request *r, struct purge_result *res,
	      struct sb_err *e);

void purge_result_json(struct json_writer *w, const char *key,
		       const struct purge_result *res);

#endif
