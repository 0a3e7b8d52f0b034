package palmed

import (
	"reflect"
	"testing"
)

// rows returns the slowdown table of four instructions: a and b on one
// unit that c uses as well (slowdown 2 with each other, themselves and
// c), d disjoint from all; scale[x] multiplies every slowdown of x's
// row, as an error of x's cycles alone does (each slowdown of the row is
// divided by them).
func rows(scale map[string]float64) map[[2]string]float64 {
	base := map[[2]string]float64{
		{"a", "b"}: 2, {"a", "c"}: 2, {"a", "d"}: 1,
		{"b", "c"}: 2, {"b", "d"}: 1, {"c", "d"}: 1,
	}
	sd := map[[2]string]float64{}
	for k, v := range base {
		sd[k] = v * scale[k[0]]
		sd[[2]string{k[1], k[0]}] = v * scale[k[1]]
	}
	// The table is symmetric where both rows agree; a shifted row reads
	// its own value for the pair.
	return sd
}

func TestClassesRelative(t *testing.T) {
	insns := []string{"a", "b", "c", "d"}
	times := map[string]float64{"a": 0.25, "b": 0.25 * 1.015, "c": 1, "d": 1}
	// b measured 1.5 % slow alone: its slowdowns are 1.5 % low, and its
	// pair with c another 0.5 %. With a fixed tolerance 0.03 it differs
	// from a by 0.04 at the slowdown 2 with c; relative to the slowdowns
	// (2 %) it is within.
	sd := rows(map[string]float64{"a": 1, "b": 1 / 1.015, "c": 1, "d": 1})
	sd[[2]string{"a", "b"}], sd[[2]string{"b", "a"}] = 2, 2
	sd[[2]string{"b", "c"}] = 2 / 1.015 / 1.005
	got := classes(insns, times, sd, 0.03, 0, false)
	if len(got) != 4 {
		t.Fatalf("fixed tolerance: %d classes %v, want a and b apart (4)", len(got), got)
	}
	got = classes(insns, times, sd, 0.03, 0, true)
	want := []Class{{Representative: "a", Members: []string{"a", "b"}, IPC: 4}, {Representative: "c", Members: []string{"c"}, IPC: 1}, {Representative: "d", Members: []string{"d"}, IPC: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("relative tolerance: got %v, want %v", got, want)
	}
	// A real difference is not absorbed: b not on c's unit (slowdown
	// 1.5 with c instead of 2).
	sd[[2]string{"b", "c"}], sd[[2]string{"c", "b"}] = 1.5, 1.5
	if got := classes(insns, times, sd, 0.03, 0, true); len(got) != 4 {
		t.Fatalf("b conflicts with c as a does not: %d classes %v, want 4", len(got), got)
	}
}

func TestMergeClasses(t *testing.T) {
	times := map[string]float64{"a": 0.25, "b": 0.25, "c": 1, "d": 1}
	sd := rows(map[string]float64{"a": 1, "b": 1, "c": 1, "d": 1})
	sd[[2]string{"b", "c"}] = 2 * 1.015 // the medians agree within 1.5 %
	split := []Class{
		{Representative: "a", Members: []string{"a", "x"}, IPC: 4},
		{Representative: "c", Members: []string{"c"}, IPC: 1},
		{Representative: "b", Members: []string{"b", "y"}, IPC: 4},
		{Representative: "d", Members: []string{"d"}, IPC: 1},
	}
	got := mergeClasses(split, times, sd, 0.02, 0)
	want := []Class{
		{Representative: "a", Members: []string{"a", "x", "b", "y"}, IPC: 4},
		{Representative: "c", Members: []string{"c"}, IPC: 1},
		{Representative: "d", Members: []string{"d"}, IPC: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	// Representatives that differ beyond the tolerance stay apart, and
	// the input is not modified.
	sd[[2]string{"b", "c"}] = 2 * 1.05
	if got := mergeClasses(split, times, sd, 0.02, 0); !reflect.DeepEqual(got, split) {
		t.Fatalf("b 5 %% off a with c: got %v, want the classes unchanged %v", got, split)
	}
}
