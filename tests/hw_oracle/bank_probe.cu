// Shared-memory bank probe for NVIDIA GPUs: each launch is one warp issuing ONE shared-memory
// instruction (ld.shared.b32 / .v2.b32 / .v4.b32, or ldmatrix.x4) at per-lane byte addresses
// chosen by the host. Run under Nsight Compute, which counts the wavefronts and bank conflicts of
// every launch; gen_bank_measurements.py pairs them with the addresses this program prints.
//
//   nvcc -O2 -arch=sm_90 bank_probe.cu -o bank_probe
//   ncu --csv --metrics <see the script> ./bank_probe > metrics.csv   (patterns on stdout: -p)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

// Loads by width in bytes, ldmatrix, and stores (kStore + width).
enum Kind { kB32 = 4, kB64 = 8, kB128 = 16, kLdmatrixX4 = 1, kStore = 100 };

__global__ void probe(const unsigned* addr, int kind, unsigned* out) {
  __shared__ __align__(128) unsigned char smem[16384];
  unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  unsigned a = base + addr[threadIdx.x];
  unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  if (kind == kB32) {
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(r0) : "r"(a));
  } else if (kind == kB64) {
    asm volatile("ld.shared.v2.b32 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
  } else if (kind == kB128) {
    asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                 : "r"(a));
  } else if (kind == kStore + kB32) {
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(a), "r"(threadIdx.x) : "memory");
  } else if (kind == kStore + kB64) {
    asm volatile("st.shared.v2.b32 [%0], {%1, %1};" ::"r"(a), "r"(threadIdx.x) : "memory");
  } else if (kind == kStore + kB128) {
    asm volatile("st.shared.v4.b32 [%0], {%1, %1, %1, %1};" ::"r"(a), "r"(threadIdx.x) : "memory");
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                 : "r"(a));
  }
  out[threadIdx.x] = r0 ^ r1 ^ r2 ^ r3;
}

struct Pattern {
  int kind;
  std::string family;
  std::vector<unsigned> addr;
};

std::vector<Pattern> patterns() {
  std::vector<Pattern> ps;
  std::mt19937 rng(20261122);
  for (int kind : {kB32, kB64, kB128, kLdmatrixX4}) {
    int width = kind == kLdmatrixX4 ? 16 : kind;
    // Strided: lane l at l * stride (column reads of row-major tiles).
    for (unsigned stride : {4u, 8u, 12u, 16u, 20u, 32u, 48u, 64u, 128u, 132u, 136u, 256u, 260u, 512u}) {
      if (stride % width) continue;
      Pattern p{kind, "stride" + std::to_string(stride), {}};
      for (unsigned l = 0; l < 32; ++l) p.addr.push_back((l * stride) % 16384);
      ps.push_back(p);
    }
    // Broadcast groups: lanes in groups of g read the same address.
    for (unsigned g : {2u, 4u, 8u, 32u}) {
      Pattern p{kind, "broadcast" + std::to_string(g), {}};
      for (unsigned l = 0; l < 32; ++l) p.addr.push_back((l / g) * 128 % 16384);
      ps.push_back(p);
    }
    // Random aligned addresses in windows of several sizes (conflicts from none to many).
    for (unsigned window : {256u, 512u, 1024u, 4096u, 16384u})
      for (int t = 0; t < 8; ++t) {
        Pattern p{kind, "random" + std::to_string(window), {}};
        for (unsigned l = 0; l < 32; ++l) p.addr.push_back((rng() % (window / width)) * width);
        ps.push_back(p);
      }
    // XOR swizzles of a 128-byte-pitch column read (Swizzle<3,4,3> on bytes and weaker ones).
    for (unsigned bits : {0u, 1u, 2u, 3u}) {
      Pattern p{kind, "swizzle" + std::to_string(bits), {}};
      for (unsigned l = 0; l < 32; ++l) {
        unsigned byte = l * 128;
        byte ^= ((byte >> 7) & ((1u << bits) - 1)) << 4;
        p.addr.push_back(byte % 16384);
      }
      ps.push_back(p);
    }
  }
  // Duplicated addresses in structured ways: do phases merge when lanes repeat each other?
  // (NVIDIA forum thread 77228: pairs Tn == Tn^1 or Tn == Tn^2 halve 128-bit loads on cc 7.x.)
  auto structured = [&](int kind, const char* name, auto f) {
    Pattern p{kind, name, {}};
    for (unsigned l = 0; l < 32; ++l) p.addr.push_back(f(l) % 16384);
    ps.push_back(p);
  };
  for (int kind : {kB32, kB64, kB128}) {
    unsigned w = unsigned(kind % kStore);
    structured(kind, "pairs_xor1", [&](unsigned l) { return (l / 2) * w; });
    structured(kind, "pairs_xor2", [&](unsigned l) { return ((l / 4) * 2 + l % 2) * w; });
    structured(kind, "quads", [&](unsigned l) { return (l / 4) * w; });
    structured(kind, "octets", [&](unsigned l) { return (l / 8) * w; });
    structured(kind, "halves_equal", [&](unsigned l) { return (l % 16) * w; });
    structured(kind, "quarters_equal", [&](unsigned l) { return (l % 8) * w; });
    structured(kind, "xor16_far", [&](unsigned l) { return (l % 16) * w + (l / 16) * 4096; });
    structured(kind, "uniform_far", [&](unsigned l) { return (l / 16) * 4096; });
    structured(kind, "uniform_mid", [&](unsigned) { return 48u * w; });
    structured(kind, "pairs_xor1_stride128", [&](unsigned l) { return (l / 2) * 128; });
    structured(kind, "pairs_xor16", [&](unsigned l) { return (l % 16) * 128; });
    for (unsigned window : {32u, 64u, 128u})
      for (int t = 0; t < 6; ++t) {
        Pattern p{kind, "random" + std::to_string(window), {}};
        for (unsigned l = 0; l < 32; ++l) p.addr.push_back((rng() % (window / w)) * w);
        ps.push_back(p);
      }
  }
  // Stores: every load pattern of the same width again, as st.shared.
  for (size_t i = 0, n = ps.size(); i < n; ++i)
    if (ps[i].kind != kLdmatrixX4) {
      Pattern p = ps[i];
      p.kind += kStore;
      ps.push_back(p);
    }
  return ps;
}

int main(int argc, char** argv) {
  std::vector<Pattern> ps = patterns();
  if (argc > 1 && std::strcmp(argv[1], "-p") == 0) {
    for (size_t i = 0; i < ps.size(); ++i) {
      const Pattern& p = ps[i];
      std::printf("{\"launch\": %zu, \"kind\": \"%s\", \"family\": \"%s\", \"addresses\": [", i,
                  p.kind == kLdmatrixX4 ? "ldmatrix.x4"
                  : p.kind > kStore     ? ("st.b" + std::to_string((p.kind - kStore) * 8)).c_str()
                                        : ("ld.b" + std::to_string(p.kind * 8)).c_str(),
                  p.family.c_str());
      for (size_t l = 0; l < p.addr.size(); ++l) std::printf("%s%u", l ? ", " : "", p.addr[l]);
      std::printf("]}\n");
    }
    return 0;
  }
  unsigned *dAddr, *dOut;
  cudaMalloc(&dAddr, 32 * sizeof(unsigned));
  cudaMalloc(&dOut, 32 * sizeof(unsigned));
  for (const Pattern& p : ps) {
    cudaMemcpy(dAddr, p.addr.data(), 32 * sizeof(unsigned), cudaMemcpyHostToDevice);
    probe<<<1, 32>>>(dAddr, p.kind, dOut);
    cudaDeviceSynchronize();
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    std::fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}
