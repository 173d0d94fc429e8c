/* The human form of the facts, for `ssdbench info`. */
#include "device/facts.h"

#include <inttypes.h>

#include "common/units.h"
#include "device/purge.h"

static void line(FILE *out, const char *label, const char *value)
{
	if (value && value[0])
		fprintf(out, "  %-22s %s\n", label, value);
}

static void line_bytes(FILE *out, const char *label, uint64_t v)
{
	char buf[32], all[96];
	snprintf(all, sizeof all, "%s (%" PRIu64 " bytes)",
		 fmt_bytes(v, buf, sizeof buf), v);
	line(out, label, all);
}

static void line_u(FILE *out, const char *label, uint64_t v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%" PRIu64, v);
	line(out, label, buf);
}

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

static void print_block(FILE *out, const struct block_facts *b)
{
	char buf[128];
	line(out, "kernel name", b->name);
	if (b->partition)
		line(out, "partition of", b->disk);
	line_bytes(out, "size", b->size_bytes);
	snprintf(buf, sizeof buf, "%u / %u bytes", b->logical_block_size,
		 b->physical_block_size);
	line(out, "logical / physical", buf);
	snprintf(buf, sizeof buf, "%u / %u bytes", b->min_io_size,
		 b->optimal_io_size);
	line(out, "min / optimal I/O", buf);
	line(out, "rotational", b->rotational < 0 ? "unknown"
				: yes_no(b->rotational));
	if (b->discard_max_bytes) {
		char g[32], m[32];
		snprintf(buf, sizeof buf, "yes (granularity %s, max %s)",
			 fmt_bytes(b->discard_granularity, g, sizeof g),
			 fmt_bytes(b->discard_max_bytes, m, sizeof m));
		line(out, "discard", buf);
	} else {
		line(out, "discard", "no");
	}
	line(out, "scheduler", b->scheduler);
	line(out, "write cache", b->write_cache);
	line(out, "read-only", yes_no(b->read_only));
	line(out, "vendor", b->vendor);
	line(out, "model", b->model);
	line(out, "serial", b->serial);
	line(out, "firmware", b->firmware);
	line(out, "backing file", b->backing_file);
	if (b->pcie.present) {
		snprintf(buf, sizeof buf, "%s x%u (max %s x%u) at %s",
			 b->pcie.speed, b->pcie.width, b->pcie.max_speed,
			 b->pcie.max_width, b->pcie.address);
		line(out, "PCIe link", buf);
	}
}

static void print_nvme(FILE *out, const struct device_facts *f)
{
	const struct nvme_ctrl_info *c = &f->nvme_ctrl;
	const struct nvme_ns_info *ns = &f->nvme_ns;
	char buf[160], ver[32];
	fprintf(out, "NVMe controller\n");
	line(out, "model", c->model);
	line(out, "serial", c->serial);
	line(out, "firmware", c->firmware);
	nvme_version_string(c->version, ver, sizeof ver);
	line(out, "NVMe version", ver);
	if (c->wctemp_k || c->cctemp_k) {
		snprintf(buf, sizeof buf, "%d / %d °C", (int)c->wctemp_k - 273,
			 (int)c->cctemp_k - 273);
		line(out, "warning / critical", buf);
	}
	line(out, "volatile write cache", yes_no(c->vwc_present));
	snprintf(buf, sizeof buf, "format %s%s, sanitize%s%s%s%s",
		 yes_no(c->oacs & NVME_OACS_FORMAT),
		 (c->fna & NVME_FNA_CRYPTO) ? " (crypto erase)" : "",
		 (c->sanicap & NVME_SANICAP_BLOCK) ? " block" : "",
		 (c->sanicap & NVME_SANICAP_CRYPTO) ? " crypto" : "",
		 (c->sanicap & NVME_SANICAP_OVERWRITE) ? " overwrite" : "",
		 (c->sanicap & 7) ? "" : " no");
	line(out, "purge support", buf);
	for (unsigned i = 0; i < c->npower_states; i++) {
		const struct nvme_power_state *p = &c->ps[i];
		char label[32];
		snprintf(label, sizeof label, "power state %u", i);
		snprintf(buf, sizeof buf, "max %.2f W%s, entry %u us, exit %u us",
			 p->max_power_w, p->non_operational
			 ? " (non-operational)" : "", p->entry_latency_us,
			 p->exit_latency_us);
		line(out, label, buf);
	}
	fprintf(out, "NVMe namespace %u\n", ns->nsid);
	for (unsigned i = 0; i < ns->nlbaf; i++) {
		const struct nvme_lbaf *l = &ns->lbaf[i];
		char label[32];
		snprintf(label, sizeof label, "LBA format %u", i);
		if (!l->data_size)
			snprintf(buf, sizeof buf, "not supported");
		else
			snprintf(buf, sizeof buf, "%u + %u bytes, %s%s",
				 l->data_size, l->metadata_size,
				 nvme_rel_perf_name(l->rel_perf),
				 i == ns->current_lbaf ? "  (in use)" : "");
		line(out, label, buf);
	}
	if (!f->nvme_smart_ok)
		line(out, "SMART log", f->nvme_note);
	if (!f->ocp_ok)
		line(out, "OCP log C0h", f->ocp_note);
}

static void print_ata(FILE *out, const struct device_facts *f)
{
	const struct ata_identify *id = &f->ata_id;
	const struct ata_security *s = &id->security;
	char buf[160];
	fprintf(out, "ATA device\n");
	line(out, "model", id->model);
	line(out, "serial", id->serial);
	line(out, "firmware", id->firmware);
	snprintf(buf, sizeof buf, "%" PRIu64 " x %u bytes (physical %u)",
		 id->sectors, id->logical_sector_size, id->physical_sector_size);
	line(out, "sectors", buf);
	if (id->sata_speed_max_gbps > 0) {
		snprintf(buf, sizeof buf, "%.1f Gb/s (max %.1f)",
			 id->sata_speed_current_gbps, id->sata_speed_max_gbps);
		line(out, "SATA link", buf);
	}
	line(out, "TRIM", yes_no(id->trim));
	line(out, "write cache", id->write_cache_supported
		  ? (id->write_cache_enabled ? "enabled" : "disabled") : "no");
	if (!s->supported) {
		line(out, "security", "not supported");
	} else {
		snprintf(buf, sizeof buf, "%s%s%s%s",
			 s->enabled ? "enabled" : "disabled",
			 s->locked ? ", locked" : "",
			 s->frozen ? ", FROZEN" : ", not frozen",
			 s->enhanced_erase_supported ? ", enhanced erase" : "");
		line(out, "security", buf);
	}
	for (unsigned i = 0; f->ata_smart_ok && i < f->ata_smart.count; i++) {
		const struct ata_smart_attr *a = &f->ata_smart.attr[i];
		const char *name = ata_smart_attr_name(a->id);
		char label[40];
		snprintf(label, sizeof label, "SMART %3u %s", a->id,
			 name ? name : "");
		snprintf(buf, sizeof buf, "value %u worst %u raw %" PRIu64,
			 a->value, a->worst, a->raw);
		line(out, label, buf);
	}
	if (!f->ata_smart_ok)
		line(out, "SMART", f->ata_note);
}

static void print_health(FILE *out, const struct device_health *h)
{
	struct device_reading r[DEVICE_MAX_READINGS];
	size_t n = device_health_readings(h, r);
	if (!n)
		return;
	fprintf(out, "health\n");
	for (size_t i = 0; i < n; i++) {
		char buf[48];
		snprintf(buf, sizeof buf, "%.15g", r[i].value);
		line(out, r[i].key, buf);
	}
}

static void print_purge_methods(FILE *out, const struct device_facts *f)
{
	enum purge_method m[PURGE_METHOD_COUNT];
	size_t n = purge_supported_ordered(f, m);
	fprintf(out, "  %-22s ", "purge methods");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? ", " : "", purge_method_name(m[i]));
	fprintf(out, "%s\n", n ? " (auto: the first)" : "none");
}

void device_facts_print(FILE *out, const struct device_facts *f)
{
	fprintf(out, "%s: %s", f->path, device_facts_transport(f));
	if (device_facts_model(f)[0])
		fprintf(out, ", %s", device_facts_model(f));
	fprintf(out, "\n");
	if (f->is_file) {
		const struct file_facts *ff = &f->file;
		line_bytes(out, "size", ff->size_bytes);
		line_bytes(out, "allocated", ff->allocated_bytes);
		line(out, "filesystem", ff->filesystem);
		line_u(out, "fs block size", ff->fs_block_size);
		if (ff->dio_offset_align)
			line_u(out, "O_DIRECT alignment", ff->dio_offset_align);
		line(out, "on device", ff->device);
		print_purge_methods(out, f);
		return;
	}
	print_block(out, &f->block);
	if (f->nvme)
		print_nvme(out, f);
	else
		line(out, "NVMe", f->nvme_note);
	if (f->ata)
		print_ata(out, f);
	else if (!f->nvme)
		line(out, "ATA", f->ata_note);
	print_health(out, &f->health);
	print_purge_methods(out, f);
}
