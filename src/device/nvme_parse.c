/*
 * Decoding of the NVMe pages.  Each parser checks the length first and
 * rejects pages that cannot be what was asked for (an all-zero Identify, an
 * impossible format index), because a garbled page printed as facts would
 * end up in a review.
 */
#include "device/nvme.h"

#include <stdio.h>
#include <string.h>

#include "device/bytes.h"

static int need_len(const char *what, size_t len, size_t want,
		    struct sb_err *e)
{
	if (len < want)
		return sb_errf(e, "%s: %zu bytes, need %zu", what, len, want);
	return 0;
}

static bool all_zero(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

/* Power in watts from a 16-bit value and a 2-bit scale where 01b means
   0.0001 W, 10b 0.01 W and 00b "not reported". */
static double scaled_power(uint16_t value, unsigned scale)
{
	switch (scale) {
	case 1: return value * 0.0001;
	case 2: return value * 0.01;
	default: return -1.0;
	}
}

static void parse_psd(const uint8_t *d, struct nvme_power_state *ps)
{
	uint16_t mp = get_le16(d + 0);
	/* MXPS (byte 3 bit 0) picks 0.0001 W units instead of 0.01 W. */
	ps->max_power_w = (d[3] & 1) ? mp * 0.0001 : mp * 0.01;
	ps->non_operational = d[3] & 2;
	ps->entry_latency_us = get_le32(d + 4);
	ps->exit_latency_us = get_le32(d + 8);
	ps->idle_power_w = scaled_power(get_le16(d + 16), d[18] >> 6);
	ps->active_power_w = scaled_power(get_le16(d + 20), d[22] >> 6);
}

int nvme_parse_id_ctrl(const uint8_t *p, size_t len,
		       struct nvme_ctrl_info *c, struct sb_err *e)
{
	if (need_len("Identify Controller", len, NVME_IDENTIFY_SIZE, e))
		return -1;
	if (all_zero(p, 72))
		return sb_errf(e, "Identify Controller: no vendor, serial or "
			       "model (an empty page)");
	memset(c, 0, sizeof *c);
	c->vid = get_le16(p + 0);
	c->ssvid = get_le16(p + 2);
	ascii_field(c->serial, p + 4, 20);
	ascii_field(c->model, p + 24, 40);
	ascii_field(c->firmware, p + 64, 8);
	c->mdts = p[77];
	c->version = get_le32(p + 80);
	c->oacs = get_le16(p + 256);
	c->lpa = p[261];
	c->npower_states = (unsigned)p[263] + 1;
	if (c->npower_states > NVME_MAX_PSD)
		c->npower_states = NVME_MAX_PSD;
	c->wctemp_k = get_le16(p + 266);
	c->cctemp_k = get_le16(p + 268);
	c->tnvmcap = get_le128_sat(p + 280);
	c->unvmcap = get_le128_sat(p + 296);
	c->sanicap = get_le32(p + 328);
	c->nn = get_le32(p + 516);
	c->oncs = get_le16(p + 520);
	c->fna = p[524];
	c->vwc_present = p[525] & 1;
	for (unsigned i = 0; i < c->npower_states; i++)
		parse_psd(p + 2048 + 32 * i, &c->ps[i]);
	return 0;
}

int nvme_parse_id_ns(const uint8_t *p, size_t len, struct nvme_ns_info *ns,
		     struct sb_err *e)
{
	if (need_len("Identify Namespace", len, NVME_IDENTIFY_SIZE, e))
		return -1;
	memset(ns, 0, sizeof *ns);
	ns->nsze = get_le64(p + 0);
	ns->ncap = get_le64(p + 8);
	ns->nuse = get_le64(p + 16);
	if (ns->nsze == 0)
		return sb_errf(e, "Identify Namespace: size 0 (the namespace "
			       "is inactive)");
	ns->nlbaf = (unsigned)p[25] + 1;
	if (ns->nlbaf > NVME_MAX_LBAF)
		return sb_errf(e, "Identify Namespace: %u LBA formats, the "
			       "specification allows at most %d",
			       ns->nlbaf, NVME_MAX_LBAF);
	/* FLBAS: bits 3:0 are the low bits of the format index, bits 6:5 the
	   high bits (only meaningful with more than 16 formats), bit 4 says
	   metadata is transferred at the end of each block. */
	uint8_t flbas = p[26];
	ns->current_lbaf = flbas & 0x0f;
	if (ns->nlbaf > 16)
		ns->current_lbaf |= ((flbas >> 5) & 3u) << 4;
	ns->metadata_extended = flbas & 0x10;
	if (ns->current_lbaf >= ns->nlbaf)
		return sb_errf(e, "Identify Namespace: format in use %u, but "
			       "only %u formats are listed",
			       ns->current_lbaf, ns->nlbaf);
	for (unsigned i = 0; i < ns->nlbaf; i++) {
		uint32_t f = get_le32(p + 128 + 4 * i);
		unsigned lbads = (f >> 16) & 0xff;
		ns->lbaf[i].metadata_size = (uint16_t)(f & 0xffff);
		ns->lbaf[i].rel_perf = (uint8_t)((f >> 24) & 3);
		/* LBADS below 9 (512 bytes) marks a format not supported;
		   beyond 31 cannot be a block size anyone ships. */
		ns->lbaf[i].data_size = (lbads >= 9 && lbads < 32)
			? (uint32_t)1 << lbads : 0;
	}
	if (ns->lbaf[ns->current_lbaf].data_size == 0)
		return sb_errf(e, "Identify Namespace: the format in use (%u) "
			       "has no valid data size", ns->current_lbaf);
	return 0;
}

int nvme_parse_smart(const uint8_t *p, size_t len, struct nvme_smart *s,
		     struct sb_err *e)
{
	if (need_len("SMART / Health log", len, NVME_LOG_SIZE, e))
		return -1;
	memset(s, 0, sizeof *s);
	s->critical_warning = p[0];
	s->temperature_k = get_le16(p + 1);
	s->available_spare = p[3];
	s->spare_threshold = p[4];
	s->percent_used = p[5];
	s->data_units_read = get_le128_sat(p + 32);
	s->data_units_written = get_le128_sat(p + 48);
	s->host_read_cmds = get_le128_sat(p + 64);
	s->host_write_cmds = get_le128_sat(p + 80);
	s->busy_minutes = get_le128_sat(p + 96);
	s->power_cycles = get_le128_sat(p + 112);
	s->power_on_hours = get_le128_sat(p + 128);
	s->unsafe_shutdowns = get_le128_sat(p + 144);
	s->media_errors = get_le128_sat(p + 160);
	s->error_log_entries = get_le128_sat(p + 176);
	s->warning_temp_minutes = get_le32(p + 192);
	s->critical_temp_minutes = get_le32(p + 196);
	for (int i = 0; i < 8; i++)
		s->sensor_k[i] = get_le16(p + 200 + 2 * i);
	return 0;
}

/* The OCP log's GUID as the bytes appear on the wire (offset 496). */
static const uint8_t ocp_smart_guid[16] = {
	0xc5, 0xaf, 0x10, 0x28, 0xea, 0xbf, 0xf2, 0xa4,
	0x9c, 0x4f, 0x6f, 0x7c, 0xc9, 0x14, 0xd5, 0xaf,
};

int nvme_parse_ocp_smart(const uint8_t *p, size_t len,
			 struct nvme_ocp_smart *o, struct sb_err *e)
{
	if (need_len("OCP SMART log C0h", len, NVME_LOG_SIZE, e))
		return -1;
	/* Many vendors used C0h for their own logs before OCP claimed it:
	   only the GUID tells the datacenter log apart. */
	if (memcmp(p + 496, ocp_smart_guid, sizeof ocp_smart_guid))
		return sb_errf(e, "log C0h is not the OCP SMART log (GUID "
			       "differs; a vendor-specific page)");
	memset(o, 0, sizeof *o);
	o->media_bytes_written = get_le128_sat(p + 0);
	o->media_bytes_read = get_le128_sat(p + 16);
	/* Bad block counters: 6 bytes raw count, 2 bytes normalized. */
	o->bad_user_blocks = get_le64(p + 32) & 0xffffffffffffull;
	o->bad_system_blocks = get_le64(p + 40) & 0xffffffffffffull;
	o->throttle_events = p[96];
	o->throttle_status = p[97];
	o->log_version = get_le16(p + 494);
	return 0;
}

int nvme_parse_sanitize_status(const uint8_t *p, size_t len,
			       struct nvme_sanitize_status *s,
			       struct sb_err *e)
{
	if (need_len("Sanitize Status log", len, 20, e))
		return -1;
	s->progress = get_le16(p + 0) / 65536.0;
	s->state = p[2] & 7;
	s->est_block_s = get_le32(p + 12);
	s->est_crypto_s = get_le32(p + 16);
	/* SPROG is only defined while a sanitize runs; a finished one is
	   complete whatever the field still holds. */
	if (s->state == 1 || s->state == 4)
		s->progress = 1.0;
	return 0;
}

void nvme_version_string(uint32_t ver, char *buf, size_t len)
{
	if (ver == 0)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%u.%u.%u", ver >> 16, (ver >> 8) & 0xff,
			 ver & 0xff);
}

const char *nvme_rel_perf_name(uint8_t rp)
{
	static const char *const names[4] = { "best", "better", "good",
					      "degraded" };
	return names[rp & 3];
}

uint64_t nvme_data_units_bytes(uint64_t units)
{
	/* One data unit is 1000 units of 512 bytes. */
	if (units > UINT64_MAX / 512000)
		return UINT64_MAX;
	return units * 512000;
}
