/*
 * The unified health view, write amplification, the readings the suite
 * stores, and the JSON form of the facts (valid JSON, every documented
 * key, nulls for what is unknown).
 */
#include "check.h"

#include <unistd.h>

#include "common/json.h"
#include "common/version.h"
#include "device/facts.h"
#include "device/host.h"

static struct nvme_smart smart_sample(uint64_t units_written)
{
	struct nvme_smart s;
	memset(&s, 0, sizeof s);
	s.temperature_k = 318;
	s.percent_used = 7;
	s.available_spare = 100;
	s.data_units_written = units_written;
	s.data_units_read = 10;
	s.power_on_hours = 99;
	return s;
}

TEST(health_from_nvme)
{
	struct nvme_smart s = smart_sample(1000);
	struct nvme_ocp_smart o = { .media_bytes_written = 1536000000ull };
	struct device_health h;
	device_health_from_nvme(&s, &o, &h);
	CHECK_NEAR(h.temperature_c, 45, 0);
	CHECK_NEAR(h.percent_used, 7, 0);
	CHECK_NEAR(h.data_written_bytes, 512000000.0, 0);
	CHECK_NEAR(h.data_read_bytes, 5120000.0, 0);
	CHECK_NEAR(h.media_written_bytes, 1536000000.0, 0);
	device_health_from_nvme(&s, NULL, &h);
	CHECK(isnan(h.media_written_bytes));
	s.temperature_k = 0;			/* not reported */
	device_health_from_nvme(&s, NULL, &h);
	CHECK(isnan(h.temperature_c));
}

TEST(health_write_amplification)
{
	struct device_health a, b;
	struct nvme_smart s0 = smart_sample(1000), s1 = smart_sample(3000);
	struct nvme_ocp_smart o0 = { .media_bytes_written = 1000000000ull };
	struct nvme_ocp_smart o1 = { .media_bytes_written = 3560000000ull };
	device_health_from_nvme(&s0, &o0, &b);
	device_health_from_nvme(&s1, &o1, &a);
	/* host 1.024 GB, NAND 2.56 GB */
	CHECK_NEAR(device_write_amplification(&b, &a), 2.5, 1e-12);
	CHECK(isnan(device_write_amplification(&b, &b)));	/* no writes */
	device_health_from_nvme(&s1, NULL, &a);
	CHECK(isnan(device_write_amplification(&b, &a)));	/* no OCP */
}

TEST(health_readings_only_known)
{
	struct device_health h;
	struct device_reading r[DEVICE_MAX_READINGS];
	device_health_unknown(&h);
	CHECK_EQ_U64(device_health_readings(&h, r), 0);
	CHECK_EQ_U64(device_health_fields(&h, r), 11);
	h.temperature_c = 51.5;
	h.media_errors = 0;
	CHECK_EQ_U64(device_health_readings(&h, r), 2);
	CHECK_EQ_STR(r[0].key, "temperature_c");
	CHECK_NEAR(r[0].value, 51.5, 0);
	CHECK_EQ_STR(r[1].key, "media_errors");
}

static struct device_facts *nvme_facts(void)
{
	struct device_facts *f = calloc(1, sizeof *f);
	strcpy(f->path, "/dev/nvme0n1");
	strcpy(f->block.name, "nvme0n1");
	strcpy(f->block.transport, "nvme");
	f->block.rotational = 0;
	f->block.io_poll = -1;
	f->block.logical_block_size = 4096;
	f->block.size_bytes = 1ull << 40;
	f->block.pcie.present = true;
	strcpy(f->block.pcie.speed, "16.0 GT/s PCIe");
	f->block.pcie.width = 4;
	f->nvme = true;
	strcpy(f->nvme_ctrl.model, "Model \"Q\"");	/* needs escaping */
	f->nvme_ctrl.wctemp_k = 355;
	f->nvme_ctrl.npower_states = 2;
	f->nvme_ctrl.ps[0].max_power_w = 8.5;
	f->nvme_ctrl.ps[0].idle_power_w = -1;
	f->nvme_ctrl.ps[0].active_power_w = -1;
	f->nvme_ns.nsid = 1;
	f->nvme_ns.nsze = 1000;
	f->nvme_ns.nlbaf = 2;
	f->nvme_ns.current_lbaf = 1;
	f->nvme_ns.lbaf[0].data_size = 512;
	f->nvme_ns.lbaf[1].data_size = 4096;
	f->nvme_ns.lbaf[1].metadata_size = 8;
	f->nvme_smart_ok = true;
	f->nvme_smart = smart_sample(1000);
	strcpy(f->ocp_note, "log C0h is not the OCP SMART log");
	strcpy(f->ata_note, "an NVMe device");
	device_health_from_nvme(&f->nvme_smart, NULL, &f->health);
	return f;
}

TEST(facts_json_nvme)
{
	struct device_facts *f = nvme_facts();
	char *s = device_facts_json_string(f);
	CHECK(s != NULL);
	if (s) {
		CHECK(json_valid(s));
		CHECK(strstr(s, "\"transport\":\"nvme\"") != NULL);
		CHECK(strstr(s, "\"model\":\"Model \\\"Q\\\"\"") != NULL);
		CHECK(strstr(s, "\"warning_temp_c\":82") != NULL);
		CHECK(strstr(s, "\"critical_temp_c\":null") != NULL);
		CHECK(strstr(s, "\"idle_power_w\":null") != NULL);
		CHECK(strstr(s, "\"size_bytes\":4096000") != NULL);
		CHECK(strstr(s, "\"data_size\":4096,\"metadata_size\":8") != NULL);
		CHECK(strstr(s, "\"in_use\":true") != NULL);
		CHECK(strstr(s, "\"link_width\":4") != NULL);
		CHECK(strstr(s, "\"io_poll\":null") != NULL);
		CHECK(strstr(s, "\"ocp\":null") != NULL);
		CHECK(strstr(s, "\"temperature_c\":45") != NULL);
		CHECK(strstr(s, "\"media_written_bytes\":null") != NULL);
		CHECK(strstr(s, "\"ata\":null") != NULL);
		CHECK(strstr(s, "\"ata_probe\":\"an NVMe device\"") != NULL);
		CHECK(strstr(s, "\"file\":null") != NULL);
	}
	free(s);
	free(f);
}

TEST(facts_json_file)
{
	struct device_facts *f = calloc(1, sizeof *f);
	f->is_file = true;
	strcpy(f->path, "/tmp/t.img");
	f->file.size_bytes = 1 << 20;
	f->file.fs_block_size = 4096;
	f->file.dio_offset_align = 512;
	strcpy(f->file.filesystem, "ext4");
	device_health_unknown(&f->health);
	CHECK_EQ_U64(device_facts_size(f), 1 << 20);
	CHECK_EQ_U64(device_facts_logical_block(f), 512);
	CHECK_EQ_STR(device_facts_transport(f), "file");
	char *s = device_facts_json_string(f);
	CHECK(s && json_valid(s));
	CHECK(s && strstr(s, "\"kind\":\"file\"") != NULL);
	CHECK(s && strstr(s, "\"block\":null") != NULL);
	CHECK(s && strstr(s, "\"dio_mem_align\":null") != NULL);
	CHECK(s && strstr(s, "\"lifetime_write_amplification\":null") != NULL);
	free(s);
	free(f);
}

TEST(monitor_without_sensors)
{
	char path[] = "/tmp/ssdbench-monitor.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	struct device_monitor *m = NULL;
	struct device_health h;
	struct sb_err e;
	CHECK(device_monitor_open(path, &m, &e) == 0);
	if (m) {
		CHECK_EQ_STR(device_monitor_source(m), "none");
		h.temperature_c = 1;
		CHECK(device_monitor_sample(m, &h, &e) == 0);
		CHECK(isnan(h.temperature_c));
		CHECK(isnan(h.data_written_bytes));
		device_monitor_close(m);
	}
	unlink(path);
	CHECK(device_monitor_open(path, &m, &e) == -1);
	CHECK(strstr(e.msg, path) != NULL);
}

/* The host facts the report's platform table shows, under the keys
   database.md names; cpu_model wherever /proc/cpuinfo has a model name. */
TEST(host_facts_keys)
{
	char *text = host_facts_json_string();
	CHECK(text && json_valid(text));
	if (!text)
		return;
	CHECK(strstr(text, "\"tool_version\":\"" SSDBENCH_VERSION "\""));
	CHECK(strstr(text, "\"kernel\":\""));
	CHECK(strstr(text, "\"machine\":\""));
	char want[300] = "", line[512];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(want, sizeof want, "\"cpus\":%ld", cpus);
	CHECK(strstr(text, want));
	FILE *f = fopen("/proc/cpuinfo", "r");
	want[0] = '\0';
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
			const char *v = strchr(line, ':') + 1;
			while (*v == ' ' || *v == '\t')
				v++;
			line[strcspn(line, "\n")] = '\0';
			snprintf(want, sizeof want, "\"cpu_model\":\"%s\"", v);
			break;
		}
	if (f)
		fclose(f);
	if (want[0])
		CHECK(strstr(text, want));
	else
		CHECK(!strstr(text, "\"cpu_model\""));
	free(text);
}

CHECK_MAIN("test_device_facts")
