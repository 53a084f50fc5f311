// The JSON form of an NVIDIA GEMM plan (cudaGemmPlanToJson, cuda_gemm_plan.h): what layoutctl
// gemm --target cuda prints with --format json and writes to <kernel>.plan.json.
#include "layout/codegen/cuda_gemm_plan.h"

#include <nlohmann/json.hpp>

namespace layout::codegen {

namespace {

nlohmann::ordered_json issueBanksJson(const CudaOperandPlan::IssueBanks& b) {
  return {{"instruction", b.instruction},
          {"issues", b.issues},
          {"wavefronts", b.wavefronts},
          {"idealWavefronts", b.idealWavefronts},
          {"conflictFree", b.wavefronts == b.idealWavefronts},
          {"maxWays", b.maxWays}};
}

nlohmann::ordered_json operandJson(const CudaOperandPlan& p) {
  return {{"tile", p.tile},
          {"encoding", p.encoding},
          {"shared", p.sharedEncoding},
          {"ldmatrix", p.ldmatrixTrans ? "ldmatrix.x4.trans" : "ldmatrix.x4"},
          {"copyBanks", issueBanksJson(p.copyIssues)},
          {"ldmatrixBanks", issueBanksJson(p.ldmatrixIssues)},
          {"synthesis",
           {{"copyWavefronts", p.copyBanks.wavefronts},
            {"copyIdeal", p.copyBanks.idealWavefronts},
            {"ldmatrixWavefronts", p.ldmatrixBanks.wavefronts},
            {"ldmatrixIdeal", p.ldmatrixBanks.idealWavefronts}}},
          {"ldmatrixLaneBits", p.ldmatrixLaneBit},
          {"ldmatrixWarpBits", p.ldmatrixWarpBit},
          {"ldmatrixIssues", p.ldmatrixIssue},
          {"copyThreadBits", p.copyThreadBit},
          {"copyIterations", p.copyIteration}};
}

} // namespace

nlohmann::ordered_json cudaGemmPlanToJson(const CudaGemmPlan& p) {
  const CudaGemmReport& r = p.report;
  if (p.sm90) {
    const CudaSm90Plan& h = p.hopper;
    return {
        {"config", cudaGemmConfigToJson(p.config)},
        {"kernel", p.name},
        {"launch", {{"grid", r.ctas}, {"threads", r.threads}, {"sharedBytes", r.sharedBytes}}},
        {"accumulator", p.accumulatorEncoding},
        {"shared", h.sharedEncoding},
        {"tma", {{"boxA", h.boxA}, {"boxB", h.boxB}, {"boxesB", h.bBoxes}, {"swizzle", "128B"}}},
        {"descriptor",
         {{"strideBytes", h.rowGroupBytes},
          {"kStepBytes", h.kStepBytes},
          {"consumerRowBytes", h.consumerRowBytes},
          {"bNMajor", h.bNMajor},
          {"bStrideBytes", h.bStrideBytes},
          {"bKStepBytes", h.bKStepBytes},
          {"bLeadingBytes", h.bLeadingBytes}}},
        {"report",
         {{"consumers", h.consumers},
          {"accumulatorRegisters", r.accumulatorRegisters},
          {"wgmmaPerKStep", r.mmaPerKStep},
          {"bytesPerKStep", r.bytesPerKStep},
          {"stageBytes", r.stageBytes},
          {"kSteps", r.kSteps},
          {"flops", r.flops}}}};
  }
  nlohmann::ordered_json mmas = nlohmann::ordered_json::array();
  for (const CudaMma& m : p.mmas) mmas.push_back({m.accumulator, m.aIssue, m.bIssue, m.bHalf});
  return {{"config", cudaGemmConfigToJson(p.config)},
          {"kernel", p.name},
          {"launch", {{"grid", r.ctas}, {"threads", r.threads}, {"sharedBytes", r.sharedBytes}}},
          {"accumulator", p.accumulatorEncoding},
          {"A", operandJson(p.a)},
          {"B", operandJson(p.b)},
          {"mmas", mmas},
          {"report",
           {{"accumulatorRegisters", r.accumulatorRegisters},
            {"fragmentRegisters", r.fragmentRegisters},
            {"mmaPerKStep", r.mmaPerKStep},
            {"ldmatrixPerKStep", r.ldmatrixPerKStep},
            {"cpAsyncPerKStep", r.cpAsyncPerKStep},
            {"bytesPerKStep", r.bytesPerKStep},
            {"stageBytes", r.stageBytes},
            {"kSteps", r.kSteps},
            {"flops", r.flops}}}};
}

} // namespace layout::codegen
