#!/usr/bin/env python3
"""Field-by-field comparison of `ssdbench info --json` with what nvme-cli
and smartctl, written by others, read from the same device.

    crosscheck.py nvme OURS ID-CTRL ID-NS SMART-LOG SMARTCTL
    crosscheck.py ata OURS SMARTCTL

Every compared field is printed; any disagreement is listed and the exit
status is 1.  Where the two sides state a fact in different units the
conversion is the specification's (NVMe: Kelvin, data units of 1000 x 512
bytes, LBA data size as a power of two, power in centiwatts or 0.1 mW by
MXPS; ATA: 48-bit raw values, temperature in the raw value's low byte), not
ssdbench's code.  Differences of convention (a field the specification
says means "not reported" when 0, which ssdbench stores as null) are named
where they are compared."""
import json
import sys

bad = []


def same(what, ours, theirs):
    ok = ours == theirs
    print(f"{'ok  ' if ok else 'DIFF'} {what}: ssdbench {ours!r}, reference {theirs!r}")
    if not ok:
        bad.append(what)


def num(v):
    """nvme-cli prints 128-bit counters as strings."""
    return int(v) if isinstance(v, str) else v


def zero_is_null(v):
    """Fields whose 0 means 'not reported' (NVMe TNVMCAP/UNVMCAP, power
    state idle/active power): ssdbench stores null."""
    v = num(v)
    return None if v == 0 else v


def check_nvme(ours, ctrl, ns, log, sc):
    n = ours["nvme"]
    for key, ref in (("model", "mn"), ("serial", "sn"), ("firmware", "fr")):
        same(f"nvme.{key} vs id-ctrl {ref}", n[key], ctrl[ref].strip())
    same("model vs smartctl model_name", ours["model"], sc["model_name"])
    same("nvme.serial vs smartctl serial_number", n["serial"], sc["serial_number"])
    same("nvme.firmware vs smartctl firmware_version", n["firmware"], sc["firmware_version"])
    ver = ctrl["ver"]
    same("nvme.version vs id-ctrl ver", n["version"],
         f"{ver >> 16}.{(ver >> 8) & 0xff}.{ver & 0xff}")
    same("id-ctrl ver vs smartctl nvme_version", ver, sc["nvme_version"]["value"])
    for key, ref in (("vid", "vid"), ("ssvid", "ssvid"), ("mdts", "mdts"), ("oacs", "oacs"),
                     ("fna", "fna"), ("sanicap", "sanicap"), ("oncs", "oncs"),
                     ("namespaces", "nn")):
        same(f"nvme.{key} vs id-ctrl {ref}", n[key], ctrl[ref])
    same("nvme.vid vs smartctl", n["vid"], sc["nvme_pci_vendor"]["id"])
    same("nvme.namespaces vs smartctl", n["namespaces"], sc["nvme_number_of_namespaces"])
    same("nvme.format_supported (OACS bit 1)", n["format_supported"], bool(ctrl["oacs"] & 2))
    same("nvme.security_supported (OACS bit 0)", n["security_supported"], bool(ctrl["oacs"] & 1))
    same("nvme.format_crypto_erase (FNA bit 2)", n["format_crypto_erase"], bool(ctrl["fna"] & 4))
    same("nvme.format_applies_to_all_namespaces (FNA bit 0)",
         n["format_applies_to_all_namespaces"], bool(ctrl["fna"] & 1))
    same("nvme.sanitize_crypto (SANICAP bit 0)", n["sanitize_crypto"], bool(ctrl["sanicap"] & 1))
    same("nvme.sanitize_block (SANICAP bit 1)", n["sanitize_block"], bool(ctrl["sanicap"] & 2))
    same("nvme.sanitize_overwrite (SANICAP bit 2)", n["sanitize_overwrite"], bool(ctrl["sanicap"] & 4))
    same("nvme.dataset_management (ONCS bit 2)", n["dataset_management"], bool(ctrl["oncs"] & 4))
    same("nvme.volatile_write_cache (VWC bit 0)", n["volatile_write_cache"], bool(ctrl["vwc"] & 1))
    same("nvme.warning_temp_c (WCTEMP K)", n["warning_temp_c"], ctrl["wctemp"] - 273)
    same("nvme.critical_temp_c (CCTEMP K)", n["critical_temp_c"], ctrl["cctemp"] - 273)
    same("nvme.total_capacity_bytes (TNVMCAP, 0 = not reported)",
         n["total_capacity_bytes"], zero_is_null(ctrl["tnvmcap"]))
    same("nvme.unallocated_capacity_bytes (UNVMCAP, 0 = not reported)",
         n["unallocated_capacity_bytes"], zero_is_null(ctrl["unvmcap"]))

    psds = ctrl["psds"][:ctrl["npss"] + 1]
    same("power state count (NPSS + 1)", len(n["power_states"]), len(psds))
    for i, (p, ref) in enumerate(zip(n["power_states"], psds)):
        scale = 0.0001 if ref["flags"] & 1 else 0.01  # MXPS
        same(f"power state {i} max_power_w", p["max_power_w"], round(ref["max_power"] * scale, 4))
        same(f"power state {i} non_operational (NOPS)", p["non_operational"], bool(ref["flags"] & 2))
        same(f"power state {i} entry_latency_us", p["entry_latency_us"], ref["entry_lat"])
        same(f"power state {i} exit_latency_us", p["exit_latency_us"], ref["exit_lat"])

    s = n["namespace"]
    same("namespace.size_blocks (NSZE)", s["size_blocks"], ns["nsze"])
    same("namespace.capacity_blocks (NCAP)", s["capacity_blocks"], ns["ncap"])
    same("namespace.used_blocks (NUSE)", s["used_blocks"], ns["nuse"])
    flbas = ns["flbas"]
    cur = (flbas & 0xf) | (((flbas >> 5) & 3) << 4)
    same("namespace.current_lbaf (FLBAS)", s["current_lbaf"], cur)
    same("namespace.metadata_extended (FLBAS bit 4)", s["metadata_extended"], bool(flbas & 0x10))
    lbafs = ns["lbafs"][:ns["nlbaf"] + 1]
    same("LBA format count (NLBAF + 1)", len(s["lba_formats"]), len(lbafs))
    for i, (f, ref) in enumerate(zip(s["lba_formats"], lbafs)):
        same(f"LBA format {i} data_size (2^LBADS)", f["data_size"], 1 << ref["ds"])
        same(f"LBA format {i} metadata_size (MS)", f["metadata_size"], ref["ms"])
        same(f"LBA format {i} relative_performance (RP)", f["relative_performance"], ref["rp"])
        same(f"LBA format {i} in_use", f["in_use"], i == cur)
    lbs = 1 << lbafs[cur]["ds"]
    same("size_bytes (NSZE x LBA data size)", ours["size_bytes"], ns["nsze"] * lbs)
    same("logical_block_size (current LBA format)", ours["logical_block_size"], lbs)
    if "user_capacity" in sc:
        same("size_bytes vs smartctl user_capacity", ours["size_bytes"], sc["user_capacity"]["bytes"])
        same("logical_block_size vs smartctl", ours["logical_block_size"], sc["logical_block_size"])

    h = ours["health"]
    same("health.temperature_c (smart-log K)", h["temperature_c"], log["temperature"] - 273)
    same("health.temperature_c vs smartctl", h["temperature_c"], sc["temperature"]["current"])
    for key, ref in (("percent_used", "percent_used"), ("available_spare_pct", "avail_spare"),
                     ("critical_warning", "critical_warning"), ("power_on_hours", "power_on_hours"),
                     ("power_cycles", "power_cycles"), ("unsafe_shutdowns", "unsafe_shutdowns"),
                     ("media_errors", "media_errors")):
        same(f"health.{key} vs smart-log {ref}", h[key], num(log[ref]))
    same("health.data_read_bytes (data units x 512000)", h["data_read_bytes"],
         num(log["data_units_read"]) * 512000)
    same("health.data_written_bytes (data units x 512000)", h["data_written_bytes"],
         num(log["data_units_written"]) * 512000)
    sl = sc["nvme_smart_health_information_log"]
    for key, ref in (("percent_used", "percentage_used"), ("available_spare_pct", "available_spare"),
                     ("power_on_hours", "power_on_hours"), ("power_cycles", "power_cycles"),
                     ("unsafe_shutdowns", "unsafe_shutdowns"), ("media_errors", "media_errors")):
        same(f"health.{key} vs smartctl {ref}", h[key], sl[ref])
    same("health.data_written_bytes vs smartctl", h["data_written_bytes"], sl["data_units_written"] * 512000)


def decode_raw(attr_id, raw):
    """smartctl's default raw formats for the attributes whose meaning is
    standard: temperatures (190, 194) are the raw value's low byte, with
    min/max in the higher bytes; the others shown whole."""
    if attr_id in (190, 194):
        return str(raw & 0xff)
    return str(raw)


def check_ata(ours, sc):
    a = ours["ata"]
    same("ata.model vs smartctl model_name", a["model"], sc["model_name"])
    same("model", ours["model"], sc["model_name"])
    same("ata.serial vs smartctl serial_number", a["serial"], sc["serial_number"])
    same("ata.firmware vs smartctl firmware_version", a["firmware"], sc["firmware_version"])
    same("ata.sectors vs smartctl user_capacity.blocks", a["sectors"], sc["user_capacity"]["blocks"])
    same("size_bytes vs smartctl user_capacity.bytes", ours["size_bytes"], sc["user_capacity"]["bytes"])
    same("ata.logical_sector_size", a["logical_sector_size"], sc["logical_block_size"])
    same("ata.physical_sector_size", a["physical_sector_size"], sc["physical_block_size"])
    rr = sc.get("rotation_rate")
    same("ata.solid_state (rotation rate 1 = SSD; smartctl prints 0)", a["solid_state"], rr == 0)
    same("ata.rotation_rpm", a["rotation_rpm"], rr if rr else None)
    same("ata.trim", a["trim"], sc["trim"]["supported"])
    same("ata.smart_supported", a["smart_supported"], sc["smart_support"]["available"])
    same("ata.smart_enabled", a["smart_enabled"], sc["smart_support"]["enabled"])
    if "write_cache" in sc:
        same("ata.write_cache_enabled", a["write_cache_enabled"], sc["write_cache"]["enabled"])
    if "ata_security" in sc:
        sec = sc["ata_security"]
        same("ata.security.enabled", a["security"]["enabled"], sec.get("enabled", False))
        same("ata.security.frozen", a["security"]["frozen"], sec.get("frozen", False))
    if "interface_speed" in sc:
        mx = sc["interface_speed"].get("max", {})
        same("ata.sata_speed_max_gbps", a["sata_speed_max_gbps"],
             mx.get("units_per_second", 0) * mx.get("bits_per_unit", 0) / 1e9 or None)

    table = sc["ata_smart_attributes"]["table"]
    same("SMART attribute ids", [x["id"] for x in a["smart_attributes"]], [x["id"] for x in table])
    for x, ref in zip(a["smart_attributes"], table):
        i = x["id"]
        same(f"SMART {i} value", x["value"], ref["value"])
        same(f"SMART {i} worst", x["worst"], ref["worst"])
        same(f"SMART {i} flags", x["flags"], ref["flags"]["value"])
        same(f"SMART {i} raw", x["raw"], ref["raw"]["value"])
        shown = ref["raw"]["string"].split()[0]
        same(f"SMART {i} raw decoded as smartctl shows it", decode_raw(i, x["raw"]), shown)
    h = ours["health"]
    same("health.temperature_c vs smartctl temperature", h["temperature_c"], sc["temperature"]["current"])
    same("health.power_on_hours", h["power_on_hours"], sc["power_on_time"]["hours"])
    same("health.power_cycles", h["power_cycles"], sc["power_cycle_count"])


def load(p):
    with open(p) as f:
        return json.load(f)


if __name__ == "__main__":
    kind, files = sys.argv[1], [load(p) for p in sys.argv[2:]]
    {"nvme": check_nvme, "ata": check_ata}[kind](*files)
    if bad:
        print(f"{len(bad)} disagreement(s): " + "; ".join(bad))
        sys.exit(1)
    print("all fields agree")
