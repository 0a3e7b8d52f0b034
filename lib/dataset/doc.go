// Package dataset finds, downloads, verifies and loads the public data sets
// portlab is evaluated on. There are two. The PMEvo artifact
// (github.com/cdl-saarland/pmevo-artifact, path vm_setup/data; Ritter & Hack,
// "PMEvo: Portable Inference of Port Mappings for Out-of-Order Processors by
// Evolutionary Optimization", PLDI 2020) holds measurements for Skylake (SKL),
// Zen+ (ZEN) and Cortex-A72 (A72): the singleton experiments
// (exps_singletons.json), the evaluation sets exps_eval_small.json,
// exps_eval_tiny.json and exps_eval_small_annotated.json (the latter with
// other tools' predictions in other_results: IACA, llvm-mca, Ithemal), a
// 1,000-experiment ZEN/exps_eval.json, the inferred mappings
// (mapping_pmevo.json, plus SKL/mapping_uops_info.json) and the SKL
// experiments of length 1 to 15 (SKL/varying_length/len_NN.json); see
// PMEvoExperiments, PMEvoMapping and VaryingLength. The iwho extract of
// uops.info (github.com/cdl-saarland/iwho, file
// iwho/inputfiles/schemes/x86_uops_info_features.json) gives the port usage
// of about 3,500 x86-64 instruction schemes on 20 microarchitectures (Intel
// from Conroe to Rocket Lake, AMD Zen+ to Zen 3); see UopsInfoSchemes and
// UopsInfo. Files lists every file with its upstream repository, pinned
// commit, path, size and SHA-256. The package holds data only: machines
// (a mapping with a front end and counters, such as the simulated
// "portlab:zenplus-like") are described by package machine.
//
// The data are looked up, per file, in a local data directory (see Dir):
// first the directory named by the environment variable PORTLAB_DATA (an
// error if it is set but does not exist); otherwise a directory shared/data
// found by walking up from the working directory (at each ancestor A,
// A/shared/data is tried, which also covers a "shared" folder beside any
// ancestor; only a directory holding pmevo-artifact or iwho counts), which
// is how tests find the read-only copy that lives beside the repository.
// Files missing there are fetched into the cache directory, PORTLAB_CACHE if
// set and otherwise os.UserCacheDir()/portlab/data, from
// BaseURL/OWNER/REPO/COMMIT/PATH at the pinned commit; every download is
// checked against the size and SHA-256 recorded in the manifest and written
// atomically (temporary file, then rename), and cached files are verified
// again once per process. Download fetches the whole set ahead of time.
// Nothing is ever copied into the repository. Both data sets are MIT
// licensed (their LICENSE files are part of the manifest); when using them,
// cite uops.info (Abel & Reineke, "uops.info: Characterizing Latency,
// Throughput, and Port Usage of Instructions on Intel Microarchitectures",
// ASPLOS 2019) and PMEvo (Ritter & Hack, PLDI 2020).
package dataset
