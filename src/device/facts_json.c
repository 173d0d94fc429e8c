/*
 * The JSON form of the facts.  Keys are stable: the store keeps this text
 * and reports from other machines read it back.  Unknown values are null,
 * absent sources (no NVMe on a loop device) are null objects with a
 * *_probe string saying why.
 */
#include "device/facts.h"

#include <math.h>
#include <stdlib.h>

#include "device/purge.h"

static void opt_u64(struct json_writer *w, const char *key, uint64_t v)
{
	if (v)
		json_u64(w, key, v);
	else
		json_null(w, key);
}

/* Power values the drive does not report are negative. */
static void opt_watts(struct json_writer *w, const char *key, double v)
{
	if (v >= 0)
		json_double(w, key, v);
	else
		json_null(w, key);
}

static void kelvin(struct json_writer *w, const char *key, uint16_t k)
{
	if (k)
		json_i64(w, key, (int64_t)k - 273);
	else
		json_null(w, key);
}

static void file_json(struct json_writer *w, const struct file_facts *ff)
{
	json_object_begin(w, "file");
	json_u64(w, "size_bytes", ff->size_bytes);
	json_u64(w, "allocated_bytes", ff->allocated_bytes);
	json_u64(w, "fs_block_size", ff->fs_block_size);
	json_string(w, "filesystem", ff->filesystem);
	opt_u64(w, "dio_mem_align", ff->dio_mem_align);
	opt_u64(w, "dio_offset_align", ff->dio_offset_align);
	json_string(w, "device", ff->device);
	json_object_end(w);
}

static void pcie_json(struct json_writer *w, const struct pcie_link *l)
{
	if (!l->present) {
		json_null(w, "pcie");
		return;
	}
	json_object_begin(w, "pcie");
	json_string(w, "address", l->address);
	json_string(w, "link_speed", l->speed);
	json_u64(w, "link_width", l->width);
	json_string(w, "max_link_speed", l->max_speed);
	json_u64(w, "max_link_width", l->max_width);
	json_object_end(w);
}

static void block_json(struct json_writer *w, const struct block_facts *b)
{
	json_object_begin(w, "block");
	json_string(w, "name", b->name);
	json_string(w, "disk", b->disk);
	json_bool(w, "partition", b->partition);
	json_u64(w, "major", b->major);
	json_u64(w, "minor", b->minor);
	json_string(w, "transport", b->transport);
	json_u64(w, "size_bytes", b->size_bytes);
	json_u64(w, "logical_block_size", b->logical_block_size);
	json_u64(w, "physical_block_size", b->physical_block_size);
	json_u64(w, "min_io_size", b->min_io_size);
	json_u64(w, "optimal_io_size", b->optimal_io_size);
	if (b->rotational < 0)
		json_null(w, "rotational");
	else
		json_bool(w, "rotational", b->rotational);
	json_bool(w, "read_only", b->read_only);
	json_bool(w, "discard", b->discard_max_bytes > 0);
	json_u64(w, "discard_max_bytes", b->discard_max_bytes);
	json_u64(w, "discard_granularity", b->discard_granularity);
	json_u64(w, "write_zeroes_max_bytes", b->write_zeroes_max_bytes);
	json_string(w, "scheduler", b->scheduler);
	json_string(w, "write_cache", b->write_cache);
	if (b->io_poll < 0)
		json_null(w, "io_poll");
	else
		json_bool(w, "io_poll", b->io_poll);
	json_string(w, "model", b->model);
	json_string(w, "vendor", b->vendor);
	json_string(w, "serial", b->serial);
	json_string(w, "firmware", b->firmware);
	json_string(w, "backing_file", b->backing_file);
	pcie_json(w, &b->pcie);
	json_object_end(w);
}

static void nvme_ctrl_json(struct json_writer *w,
			   const struct nvme_ctrl_info *c)
{
	char ver[32];
	nvme_version_string(c->version, ver, sizeof ver);
	json_u64(w, "vid", c->vid);
	json_u64(w, "ssvid", c->ssvid);
	json_string(w, "serial", c->serial);
	json_string(w, "model", c->model);
	json_string(w, "firmware", c->firmware);
	json_string(w, "version", ver);
	json_u64(w, "mdts", c->mdts);
	json_u64(w, "oacs", c->oacs);
	json_bool(w, "format_supported", c->oacs & NVME_OACS_FORMAT);
	json_bool(w, "security_supported", c->oacs & NVME_OACS_SECURITY);
	json_u64(w, "fna", c->fna);
	json_bool(w, "format_crypto_erase", c->fna & NVME_FNA_CRYPTO);
	json_bool(w, "format_applies_to_all_namespaces",
		  c->fna & NVME_FNA_FORMAT_ALL);
	json_u64(w, "sanicap", c->sanicap);
	json_bool(w, "sanitize_crypto", c->sanicap & NVME_SANICAP_CRYPTO);
	json_bool(w, "sanitize_block", c->sanicap & NVME_SANICAP_BLOCK);
	json_bool(w, "sanitize_overwrite",
		  c->sanicap & NVME_SANICAP_OVERWRITE);
	json_u64(w, "oncs", c->oncs);
	json_bool(w, "dataset_management", c->oncs & NVME_ONCS_DSM);
	json_bool(w, "volatile_write_cache", c->vwc_present);
	kelvin(w, "warning_temp_c", c->wctemp_k);
	kelvin(w, "critical_temp_c", c->cctemp_k);
	opt_u64(w, "total_capacity_bytes", c->tnvmcap);
	opt_u64(w, "unallocated_capacity_bytes", c->unvmcap);
	json_u64(w, "namespaces", c->nn);
	json_array_begin(w, "power_states");
	for (unsigned i = 0; i < c->npower_states; i++) {
		const struct nvme_power_state *ps = &c->ps[i];
		json_object_begin(w, NULL);
		json_u64(w, "index", i);
		json_double(w, "max_power_w", ps->max_power_w);
		opt_watts(w, "active_power_w", ps->active_power_w);
		opt_watts(w, "idle_power_w", ps->idle_power_w);
		json_bool(w, "non_operational", ps->non_operational);
		json_u64(w, "entry_latency_us", ps->entry_latency_us);
		json_u64(w, "exit_latency_us", ps->exit_latency_us);
		json_object_end(w);
	}
	json_array_end(w);
}

static void nvme_ns_json(struct json_writer *w, const struct nvme_ns_info *ns)
{
	const struct nvme_lbaf *cur = &ns->lbaf[ns->current_lbaf];
	json_object_begin(w, "namespace");
	json_u64(w, "nsid", ns->nsid);
	json_u64(w, "size_blocks", ns->nsze);
	json_u64(w, "capacity_blocks", ns->ncap);
	json_u64(w, "used_blocks", ns->nuse);
	json_u64(w, "size_bytes", ns->nsze * cur->data_size);
	json_u64(w, "current_lbaf", ns->current_lbaf);
	json_bool(w, "metadata_extended", ns->metadata_extended);
	json_array_begin(w, "lba_formats");
	for (unsigned i = 0; i < ns->nlbaf; i++) {
		const struct nvme_lbaf *f = &ns->lbaf[i];
		json_object_begin(w, NULL);
		json_u64(w, "index", i);
		json_bool(w, "supported", f->data_size != 0);
		json_u64(w, "data_size", f->data_size);
		json_u64(w, "metadata_size", f->metadata_size);
		json_u64(w, "relative_performance", f->rel_perf);
		json_string(w, "performance", nvme_rel_perf_name(f->rel_perf));
		json_bool(w, "in_use", i == ns->current_lbaf);
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

static void nvme_smart_json(struct json_writer *w, const struct nvme_smart *s)
{
	json_object_begin(w, "smart");
	json_u64(w, "critical_warning", s->critical_warning);
	kelvin(w, "temperature_c", s->temperature_k);
	json_u64(w, "available_spare_pct", s->available_spare);
	json_u64(w, "available_spare_threshold_pct", s->spare_threshold);
	json_u64(w, "percent_used", s->percent_used);
	json_u64(w, "data_units_read", s->data_units_read);
	json_u64(w, "data_units_written", s->data_units_written);
	json_u64(w, "host_read_commands", s->host_read_cmds);
	json_u64(w, "host_write_commands", s->host_write_cmds);
	json_u64(w, "controller_busy_minutes", s->busy_minutes);
	json_u64(w, "power_cycles", s->power_cycles);
	json_u64(w, "power_on_hours", s->power_on_hours);
	json_u64(w, "unsafe_shutdowns", s->unsafe_shutdowns);
	json_u64(w, "media_errors", s->media_errors);
	json_u64(w, "error_log_entries", s->error_log_entries);
	json_u64(w, "warning_temp_minutes", s->warning_temp_minutes);
	json_u64(w, "critical_temp_minutes", s->critical_temp_minutes);
	json_array_begin(w, "sensors_c");
	for (int i = 0; i < 8; i++)
		kelvin(w, NULL, s->sensor_k[i]);
	json_array_end(w);
	json_object_end(w);
}

static void ocp_json(struct json_writer *w, const struct nvme_ocp_smart *o)
{
	json_object_begin(w, "ocp");
	json_u64(w, "media_bytes_written", o->media_bytes_written);
	json_u64(w, "media_bytes_read", o->media_bytes_read);
	json_u64(w, "bad_user_blocks", o->bad_user_blocks);
	json_u64(w, "bad_system_blocks", o->bad_system_blocks);
	json_u64(w, "throttle_events", o->throttle_events);
	json_u64(w, "throttle_status", o->throttle_status);
	json_u64(w, "log_version", o->log_version);
	json_object_end(w);
}

static void nvme_json(struct json_writer *w, const struct device_facts *f)
{
	json_string(w, "nvme_probe", f->nvme ? "" : f->nvme_note);
	if (!f->nvme) {
		json_null(w, "nvme");
		return;
	}
	json_object_begin(w, "nvme");
	nvme_ctrl_json(w, &f->nvme_ctrl);
	nvme_ns_json(w, &f->nvme_ns);
	if (f->nvme_smart_ok)
		nvme_smart_json(w, &f->nvme_smart);
	else
		json_null(w, "smart");
	json_string(w, "smart_note", f->nvme_smart_ok ? "" : f->nvme_note);
	if (f->ocp_ok)
		ocp_json(w, &f->ocp);
	else
		json_null(w, "ocp");
	json_string(w, "ocp_note", f->ocp_ok ? "" : f->ocp_note);
	json_object_end(w);
}

static void ata_security_json(struct json_writer *w,
			      const struct ata_security *s)
{
	json_object_begin(w, "security");
	json_bool(w, "supported", s->supported);
	json_bool(w, "enabled", s->enabled);
	json_bool(w, "locked", s->locked);
	json_bool(w, "frozen", s->frozen);
	json_bool(w, "count_expired", s->count_expired);
	json_bool(w, "enhanced_erase_supported", s->enhanced_erase_supported);
	json_string(w, "level", s->level_maximum ? "maximum" : "high");
	opt_u64(w, "erase_minutes", s->erase_minutes);
	opt_u64(w, "enhanced_erase_minutes", s->enhanced_erase_minutes);
	json_object_end(w);
}

static void ata_json(struct json_writer *w, const struct device_facts *f)
{
	const struct ata_identify *id = &f->ata_id;
	json_string(w, "ata_probe", f->ata ? "" : f->ata_note);
	if (!f->ata) {
		json_null(w, "ata");
		return;
	}
	json_object_begin(w, "ata");
	json_string(w, "serial", id->serial);
	json_string(w, "model", id->model);
	json_string(w, "firmware", id->firmware);
	json_u64(w, "sectors", id->sectors);
	json_u64(w, "logical_sector_size", id->logical_sector_size);
	json_u64(w, "physical_sector_size", id->physical_sector_size);
	json_bool(w, "lba48", id->lba48);
	if (id->sata_speed_max_gbps > 0)
		json_double(w, "sata_speed_max_gbps", id->sata_speed_max_gbps);
	else
		json_null(w, "sata_speed_max_gbps");
	if (id->sata_speed_current_gbps > 0)
		json_double(w, "sata_speed_current_gbps",
			    id->sata_speed_current_gbps);
	else
		json_null(w, "sata_speed_current_gbps");
	json_bool(w, "ncq", id->ncq);
	json_u64(w, "queue_depth", id->queue_depth);
	json_bool(w, "smart_supported", id->smart_supported);
	json_bool(w, "smart_enabled", id->smart_enabled);
	json_bool(w, "write_cache_supported", id->write_cache_supported);
	json_bool(w, "write_cache_enabled", id->write_cache_enabled);
	json_bool(w, "trim", id->trim);
	if (id->rotation_rate == 1)
		json_bool(w, "solid_state", true);
	else if (id->rotation_rate)
		json_bool(w, "solid_state", false);
	else
		json_null(w, "solid_state");
	opt_u64(w, "rotation_rpm", id->rotation_rate > 1 ? id->rotation_rate
							 : 0);
	ata_security_json(w, &id->security);
	if (f->ata_smart_ok) {
		json_array_begin(w, "smart_attributes");
		for (unsigned i = 0; i < f->ata_smart.count; i++) {
			const struct ata_smart_attr *a = &f->ata_smart.attr[i];
			const char *name = ata_smart_attr_name(a->id);
			json_object_begin(w, NULL);
			json_u64(w, "id", a->id);
			json_string(w, "name", name ? name : "vendor_specific");
			json_u64(w, "flags", a->flags);
			json_u64(w, "value", a->value);
			json_u64(w, "worst", a->worst);
			json_u64(w, "raw", a->raw);
			json_object_end(w);
		}
		json_array_end(w);
	} else {
		json_null(w, "smart_attributes");
	}
	json_string(w, "smart_note", f->ata_smart_ok ? "" : f->ata_note);
	json_object_end(w);
}

static void health_json(struct json_writer *w, const struct device_health *h)
{
	struct device_reading all[DEVICE_MAX_READINGS];
	size_t n = device_health_fields(h, all);
	json_object_begin(w, "health");
	/* Every key is always there, null when unknown. */
	for (size_t i = 0; i < n; i++)
		json_double(w, all[i].key, all[i].value);
	json_double(w, "lifetime_write_amplification",
		    h->data_written_bytes > 0
		    ? h->media_written_bytes / h->data_written_bytes : NAN);
	json_object_end(w);
}

/* What `ssdbench purge` could do here, strongest first as auto tries. */
static void purge_methods_json(struct json_writer *w,
			       const struct device_facts *f)
{
	enum purge_method order[PURGE_METHOD_COUNT];
	size_t n = purge_supported_ordered(f, order);
	json_array_begin(w, "purge_methods");
	for (size_t i = 0; i < n; i++)
		json_string(w, NULL, purge_method_name(order[i]));
	json_array_end(w);
}

void device_facts_json(struct json_writer *w, const char *key,
		       const struct device_facts *f)
{
	json_object_begin(w, key);
	json_string(w, "path", f->path);
	json_string(w, "collected_at", f->collected_at);
	json_string(w, "kind", f->is_file ? "file" : "block");
	json_string(w, "transport", device_facts_transport(f));
	json_string(w, "model", device_facts_model(f));
	json_u64(w, "size_bytes", device_facts_size(f));
	json_u64(w, "logical_block_size", device_facts_logical_block(f));
	if (f->is_file) {
		file_json(w, &f->file);
		json_null(w, "block");
	} else {
		json_null(w, "file");
		block_json(w, &f->block);
	}
	nvme_json(w, f);
	ata_json(w, f);
	health_json(w, &f->health);
	purge_methods_json(w, f);
	json_object_end(w);
}

static void facts_object(struct json_writer *w, const void *f)
{
	device_facts_json(w, NULL, f);
}

char *device_facts_json_string(const struct device_facts *f)
{
	return json_to_string(facts_object, f);
}
