/*
 * SATA drives: IDENTIFY DEVICE, SMART READ DATA and the security feature
 * set, reached through SCSI ATA PASS-THROUGH (16) over SG_IO (the way the
 * kernel's libata exposes them).  Word and bit positions follow ACS-3
 * (ATA/ATAPI Command Set); the SMART attribute table layout is the
 * de-facto one every drive and smartmontools use.  The parsers are pure.
 */
#ifndef SSDBENCH_DEVICE_ATA_H
#define SSDBENCH_DEVICE_ATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define ATA_SECTOR 512
#define ATA_SMART_MAX_ATTRS 30

struct ata_security {
	bool supported, enabled, locked, frozen, count_expired;
	bool enhanced_erase_supported;
	bool level_maximum;		/* else high */
	/* Minutes the drive estimates for an erase, 0 when not given. */
	unsigned erase_minutes, enhanced_erase_minutes;
};

struct ata_identify {
	char serial[21];
	char model[41];
	char firmware[9];
	uint64_t sectors;		/* user addressable logical sectors */
	uint32_t logical_sector_size;	/* bytes */
	uint32_t physical_sector_size;
	bool lba48;
	/* SATA signalling speed in Gb/s: 1.5, 3.0, 6.0; 0 when unknown. */
	double sata_speed_max_gbps, sata_speed_current_gbps;
	bool ncq;
	unsigned queue_depth;
	bool smart_supported, smart_enabled;
	bool write_cache_supported, write_cache_enabled;
	bool trim;
	/* Word 217: 1 for solid state, else rpm; 0 when not reported. */
	unsigned rotation_rate;
	struct ata_security security;
	bool checksum_present;		/* word 255 carries the A5h signature */
};

struct ata_smart_attr {
	uint8_t id;
	uint16_t flags;
	uint8_t value, worst;
	uint64_t raw;			/* 48 bits */
};

struct ata_smart {
	unsigned count;
	struct ata_smart_attr attr[ATA_SMART_MAX_ATTRS];
};

/* `page` is the 512-byte IDENTIFY DEVICE data as read from the drive. */
int ata_parse_identify(const uint8_t *page, size_t len,
		       struct ata_identify *out, struct sb_err *e);
int ata_parse_smart(const uint8_t *page, size_t len, struct ata_smart *out,
		    struct sb_err *e);
/* A short name for well-known attribute IDs, NULL for vendor-specific. */
const char *ata_smart_attr_name(uint8_t id);
/* The attribute with `id`, or NULL. */
const struct ata_smart_attr *ata_smart_find(const struct ata_smart *s,
					    uint8_t id);
/* Current temperature in °C from attribute 194 (or 190), false if none. */
bool ata_smart_temperature(const struct ata_smart *s, double *celsius);

/* --- commands (src/device/ata_cmd.c) --------------------------------- */

/*
 * The outcome of a pass-through command from its sense data, fixed (70h)
 * or descriptor (72h) format; in the latter an ATA Status Return
 * descriptor (09h) carries the ATA status, whose bit 0 (ERR) says the
 * drive rejected the command.  Recovered errors without ERR are success
 * (some SAT layers report every completion so); ILLEGAL REQUEST means
 * the device is not ATA.
 */
int ata_check_sense(const char *what, const uint8_t *sense, unsigned len,
		    struct sb_err *e);

/* "Not ATA" when the device does not take SG_IO or rejects the command. */
int ata_identify(int fd, uint8_t page[ATA_SECTOR], struct sb_err *e);
int ata_smart_read(int fd, uint8_t page[ATA_SECTOR], struct sb_err *e);
int ata_security_set_password(int fd, const char *pw, struct sb_err *e);
int ata_security_erase(int fd, const char *pw, bool enhanced,
		       unsigned timeout_s, struct sb_err *e);
int ata_security_disable(int fd, const char *pw, struct sb_err *e);

#endif
