#include "device/health.h"

#include <math.h>

void device_health_unknown(struct device_health *h)
{
	h->temperature_c = NAN;
	h->percent_used = NAN;
	h->available_spare_pct = NAN;
	h->critical_warning = NAN;
	h->data_read_bytes = NAN;
	h->data_written_bytes = NAN;
	h->media_written_bytes = NAN;
	h->power_on_hours = NAN;
	h->power_cycles = NAN;
	h->unsafe_shutdowns = NAN;
	h->media_errors = NAN;
}

void device_health_from_nvme(const struct nvme_smart *s,
			     const struct nvme_ocp_smart *ocp,
			     struct device_health *h)
{
	device_health_unknown(h);
	/* Kelvin; 0 means the controller does not report it. */
	if (s->temperature_k)
		h->temperature_c = s->temperature_k - 273.0;
	h->percent_used = s->percent_used;
	h->available_spare_pct = s->available_spare;
	h->critical_warning = s->critical_warning;
	h->data_read_bytes = (double)nvme_data_units_bytes(s->data_units_read);
	h->data_written_bytes =
		(double)nvme_data_units_bytes(s->data_units_written);
	h->power_on_hours = (double)s->power_on_hours;
	h->power_cycles = (double)s->power_cycles;
	h->unsafe_shutdowns = (double)s->unsafe_shutdowns;
	h->media_errors = (double)s->media_errors;
	if (ocp)
		h->media_written_bytes = (double)ocp->media_bytes_written;
}

void device_health_from_ata(const struct ata_smart *s, uint32_t sector_size,
			    struct device_health *h)
{
	const struct ata_smart_attr *a;
	double t;
	device_health_unknown(h);
	if (ata_smart_temperature(s, &t))
		h->temperature_c = t;
	/* Power-on hours: the low 32 bits; some drives keep minutes or
	   milliseconds in the upper bytes. */
	if ((a = ata_smart_find(s, 9)))
		h->power_on_hours = (double)(a->raw & 0xffffffffu);
	if ((a = ata_smart_find(s, 12)))
		h->power_cycles = (double)a->raw;
	if ((a = ata_smart_find(s, 174)))
		h->unsafe_shutdowns = (double)a->raw;
	if ((a = ata_smart_find(s, 187)))
		h->media_errors = (double)a->raw;
	/* Wear: normalized values count down from 100 (Intel 233, Kingston
	   and others 231, Samsung 177 as "wear leveling count"). */
	static const uint8_t wear_ids[] = { 233, 231, 177 };
	for (size_t i = 0; i < sizeof wear_ids; i++)
		if ((a = ata_smart_find(s, wear_ids[i])) && a->value <= 100) {
			h->percent_used = 100.0 - a->value;
			break;
		}
	if ((a = ata_smart_find(s, 241)))
		h->data_written_bytes = (double)a->raw * sector_size;
	if ((a = ata_smart_find(s, 242)))
		h->data_read_bytes = (double)a->raw * sector_size;
}

double device_write_amplification(const struct device_health *b,
				  const struct device_health *a)
{
	double host = a->data_written_bytes - b->data_written_bytes;
	double media = a->media_written_bytes - b->media_written_bytes;
	if (!isfinite(host) || !isfinite(media) || host <= 0 || media < 0)
		return NAN;
	return media / host;
}

size_t device_health_fields(const struct device_health *h,
			    struct device_reading out[DEVICE_MAX_READINGS])
{
	const struct device_reading all[] = {
		{ "temperature_c", h->temperature_c },
		{ "percent_used", h->percent_used },
		{ "available_spare_pct", h->available_spare_pct },
		{ "critical_warning", h->critical_warning },
		{ "data_read_bytes", h->data_read_bytes },
		{ "data_written_bytes", h->data_written_bytes },
		{ "media_written_bytes", h->media_written_bytes },
		{ "power_on_hours", h->power_on_hours },
		{ "power_cycles", h->power_cycles },
		{ "unsafe_shutdowns", h->unsafe_shutdowns },
		{ "media_errors", h->media_errors },
	};
	_Static_assert(sizeof all / sizeof all[0] <= DEVICE_MAX_READINGS,
		       "DEVICE_MAX_READINGS too small");
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		out[i] = all[i];
	return sizeof all / sizeof all[0];
}

size_t device_health_readings(const struct device_health *h,
			      struct device_reading out[DEVICE_MAX_READINGS])
{
	struct device_reading all[DEVICE_MAX_READINGS];
	size_t nall = device_health_fields(h, all), n = 0;
	for (size_t i = 0; i < nall; i++)
		if (isfinite(all[i].value))
			out[n++] = all[i];
	return n;
}
