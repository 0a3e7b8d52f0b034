// Package uopsinfo infers a port mapping with per-port µop counters, by
// the blocking-instruction algorithm of uops.info (Abel and Reineke,
// ASPLOS 2019; Ritter's thesis, Algorithm 6.1). A blocking instruction for
// a port set Q decomposes into one µop that can run exactly on Q; the
// counters show which: one µop per execution, spread over the ports of Q.
// To find the µops of another instruction i, the method runs i together
// with enough copies of the blocking instruction for Q to keep every port
// of Q busy, so that every µop of i that can run elsewhere does, and counts
// the µops executed on Q: beyond the blocking µops they are i's µops whose
// ports lie within Q. Port sets are taken smallest first, so subtracting
// the µops already found on proper subsets of Q leaves those whose port
// set is exactly Q.
//
// The method needs an oracle whose measurements carry per-port counts
// (portmap.Measurement.PortUops): a simulation (oracle.Simulated with
// PortCounters), or a replay of data recorded with them. It reports, per
// instruction, every measurement it made and what it concluded from it,
// and maps only instructions whose counts add up: an instruction with µops
// on port sets that no blocking instruction blocks is reported as
// incomplete, and counts that are not whole numbers, go negative or exceed
// the instruction's µops as inconsistent, never guessed. No single-µop
// instruction blocks the store-address and store-data ports of Intel
// cores; as uops.info does, the method then takes a store, two µops on
// two such port sets, as the blocking instruction for both (the store
// blocker; Method.StoreBlocker, Method.StoreSplit). That it has one µop on
// each set is an assumption: it is read off its counts when they allow one
// split only (Skylake: [2 3 7] and [4]), and must be given when they allow
// several (Ice Lake: [4 9] and [7 8]); a wrong split maps the stores
// consistently wrong, which the counters cannot show. The number of blocking
// copies follows the uops.info implementation (NanoBenchCopies); the
// paper's smaller number is wrong in general (thesis App. E.1), which
// FixedCopies lets one reproduce.
package uopsinfo
