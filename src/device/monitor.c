/*
 * Sampling health during a run.  The source is chosen once at open (the
 * probing is the expensive part); each sample is then one log read.
 */
#include "device/health.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device/bytes.h"
#include "device/sysfs.h"

enum monitor_source { SRC_NONE, SRC_NVME, SRC_ATA, SRC_HWMON };

struct device_monitor {
	int fd;
	enum monitor_source source;
	bool ocp;			/* the drive has the OCP log */
	uint32_t sector_size;
	char hwmon[512];
};

static bool nvme_ocp_available(int fd)
{
	uint8_t page[NVME_LOG_SIZE];
	struct nvme_ocp_smart o;
	struct sb_err e;
	return nvme_get_log(fd, NVME_NSID_ALL, NVME_LOG_OCP_SMART, page,
			    sizeof page, &e) == 0 &&
	       nvme_parse_ocp_smart(page, sizeof page, &o, &e) == 0;
}

static void pick_source(struct device_monitor *m, dev_t rdev)
{
	uint8_t page[ATA_SECTOR];
	struct ata_identify id;
	struct block_facts *b;
	uint32_t nsid;
	struct sb_err e;

	if (nvme_get_nsid(m->fd, &nsid, &e) == 0) {
		m->source = SRC_NVME;
		m->ocp = nvme_ocp_available(m->fd);
		return;
	}
	if (ata_identify(m->fd, page, &e) == 0 &&
	    ata_parse_identify(page, sizeof page, &id, &e) == 0 &&
	    id.smart_supported && id.smart_enabled) {
		m->source = SRC_ATA;
		m->sector_size = id.logical_sector_size;
		return;
	}
	b = malloc(sizeof *b);
	if (b && sysfs_block_facts(rdev, b, &e) == 0 && b->hwmon_temp[0]) {
		m->source = SRC_HWMON;
		str_copy(m->hwmon, sizeof m->hwmon, b->hwmon_temp);
	}
	free(b);
}

int device_monitor_open(const char *path, struct device_monitor **out,
			struct sb_err *e)
{
	struct stat st;
	struct device_monitor *m = calloc(1, sizeof *m);
	if (!m)
		return sb_errf(e, "out of memory");
	m->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (m->fd < 0) {
		int err = errno;
		free(m);
		return sb_errno(e, err, "%s", path);
	}
	if (fstat(m->fd, &st) == 0 && S_ISBLK(st.st_mode))
		pick_source(m, st.st_rdev);
	*out = m;
	return 0;
}

static int sample_hwmon(struct device_monitor *m, struct device_health *h,
			struct sb_err *e)
{
	char buf[32], *end;
	const char *slash = strrchr(m->hwmon, '/');
	char dir[sizeof m->hwmon];
	str_copy(dir, sizeof dir, m->hwmon);
	dir[slash - m->hwmon] = '\0';
	if (sysfs_read(dir, slash + 1, buf, sizeof buf))
		return sb_errf(e, "cannot read %s", m->hwmon);
	long milli = strtol(buf, &end, 10);
	if (end == buf)
		return sb_errf(e, "%s: not a temperature: '%s'", m->hwmon, buf);
	h->temperature_c = milli / 1000.0;
	return 0;
}

int device_monitor_sample(struct device_monitor *m, struct device_health *h,
			  struct sb_err *e)
{
	device_health_unknown(h);
	switch (m->source) {
	case SRC_NVME: {
		uint8_t page[NVME_LOG_SIZE];
		struct nvme_smart s;
		struct nvme_ocp_smart o;
		bool have_ocp = false;
		if (nvme_get_log(m->fd, NVME_NSID_ALL, NVME_LOG_SMART, page,
				 sizeof page, e) ||
		    nvme_parse_smart(page, sizeof page, &s, e))
			return -1;
		if (m->ocp)
			have_ocp = nvme_get_log(m->fd, NVME_NSID_ALL,
						NVME_LOG_OCP_SMART, page,
						sizeof page, e) == 0 &&
				   nvme_parse_ocp_smart(page, sizeof page, &o,
							e) == 0;
		device_health_from_nvme(&s, have_ocp ? &o : NULL, h);
		return 0;
	}
	case SRC_ATA: {
		uint8_t page[ATA_SECTOR];
		struct ata_smart s;
		if (ata_smart_read(m->fd, page, e) ||
		    ata_parse_smart(page, sizeof page, &s, e))
			return -1;
		device_health_from_ata(&s, m->sector_size, h);
		return 0;
	}
	case SRC_HWMON:
		return sample_hwmon(m, h, e);
	case SRC_NONE:
		break;
	}
	return 0;
}

const char *device_monitor_source(const struct device_monitor *m)
{
	static const char *const names[] = { "none", "nvme", "ata", "hwmon" };
	return names[m->source];
}

void device_monitor_close(struct device_monitor *m)
{
	if (!m)
		return;
	close(m->fd);
	free(m);
}
