// The device requirement check, on capabilities written by hand. IP versions are compute-runtime's
// encodings (architecture << 22 | release << 14 | revision): PVC C0 0x030f0007 = 12.60.7, BMG G21
// 0x05004000 = 20.1.0, LNL 0x05010000 = 20.4.0, DG2 G10 0x030dc004 = 12.55.4.
#include "layout/level_zero/device_requirements.h"

#include <gtest/gtest.h>

namespace layout::level_zero {
namespace {

TEST(DeviceRequirements, IpVersionsDecode) {
  EXPECT_EQ(gpuIpVersionText(decodeGpuIpVersion(0x030f0007)), "12.60.7");
  EXPECT_EQ(gpuIpVersionText(decodeGpuIpVersion(0x05004000)), "20.1.0");
  EXPECT_EQ(gpuIpVersionText(decodeGpuIpVersion(0x05010000)), "20.4.0");
  EXPECT_EQ(gpuIpVersionText(decodeGpuIpVersion(0x030dc004)), "12.55.4");
}

DeviceCapabilities pvc() {
  DeviceCapabilities d;
  d.subgroupSizes = {16, 32};
  d.maxWorkGroupSize = 1024;
  d.ipVersion = 0x030f0007;
  d.dpas = true;
  d.blockLoad2d = d.blockStore2d = true;
  return d;
}

DeviceRequirements gemm(const char* arch) {
  DeviceRequirements n;
  n.arch = arch;
  n.workGroupSize = 512;
  n.dpas = n.blockIo2d = true;
  return n;
}

std::string failure(const DeviceCapabilities& d, const DeviceRequirements& n) {
  auto r = checkDeviceRequirements(d, n);
  return r ? std::string("ok") : r.error().message;
}

TEST(DeviceRequirements, EachRuleNamesWhatIsMissing) {
  EXPECT_EQ(failure(pvc(), gemm("pvc")), "ok");
  // Other steppings of the same release pass; other releases do not.
  DeviceCapabilities b0 = pvc();
  b0.ipVersion = 0x030f0003;
  EXPECT_EQ(failure(b0, gemm("pvc")), "ok");
  DeviceCapabilities lnl = pvc();
  lnl.ipVersion = 0x05010000;
  EXPECT_EQ(failure(lnl, gemm("bmg")),
            "the device is IP 20.4.0, the kernel was built for --arch bmg (IP 20.1 or 20.2): build "
            "it for the device's target");
  EXPECT_EQ(failure(pvc(), gemm("bmg")),
            "the device is IP 12.60.7 (pvc), the kernel was built for --arch bmg (IP 20.1 or "
            "20.2): build it for the device's target");
  EXPECT_EQ(failure(pvc(), gemm("my-target-file.json")), "ok"); // no IP table: not compared
  DeviceCapabilities d = pvc();
  d.subgroupSizes = {8, 32};
  EXPECT_EQ(failure(d, gemm("pvc")),
            "the device has no subgroups of 16 (it has 8, 32): the kernels "
            "are written for SIMD16 DPAS (PVC, BMG)");
  d = pvc();
  d.maxWorkGroupSize = 256;
  EXPECT_EQ(failure(d, gemm("pvc")), "the work-group of 512 work-items exceeds the device's 256 "
                                     "(use fewer subgroups per work-group)");
  d = pvc();
  d.dpas = false;
  EXPECT_NE(failure(d, gemm("pvc")).find("the device has no DPAS"), std::string::npos);
  DeviceRequirements noDpas = gemm("pvc");
  noDpas.dpas = false;
  EXPECT_EQ(failure(d, noDpas), "ok");
  d = pvc();
  d.blockStore2d = false;
  EXPECT_NE(failure(d, gemm("pvc")).find("the device has no 2D block stores"), std::string::npos);
}

TEST(DeviceRequirements, UnknownIsNotAbsent) {
  DeviceCapabilities d = pvc();
  d.ipVersion.reset();
  d.dpas.reset();
  d.blockLoad2d.reset();
  d.blockStore2d.reset();
  std::vector<std::string> unknown;
  ASSERT_TRUE(checkDeviceRequirements(d, gemm("pvc"), &unknown));
  ASSERT_EQ(unknown.size(), 3u);
  EXPECT_EQ(unknown[0], "IP version (the driver lacks ZE_extension_device_ip_version)");
  EXPECT_NE(unknown[1].find("DPAS"), std::string::npos);
  EXPECT_NE(unknown[2].find("2D block I/O"), std::string::npos);
}

} // namespace
} // namespace layout::level_zero
