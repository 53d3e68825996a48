package elem

import (
	"fmt"
	"strings"

	"github.com/simdkit/elem/internal/cpuinfo"
	"github.com/simdkit/elem/internal/kernel"
)

// Auto is the name under which SetImplementation and ELEM_IMPL select the
// automatic choice, the default: the implementation of each call is picked
// by the call's op and size from a rule for this CPU (see Dispatch). It is
// not an implementation, so Implementations does not list it.
const Auto = kernel.AutoName

// Implementation returns the name of the implementation in use: "generic",
// "avx2", "avx512" or "neon". When one is forced (ELEM_IMPL,
// SetImplementation) it runs every call; in the automatic mode (the
// default) it is the default level for this CPU, which runs every call the
// rule does not give to another implementation, and Dispatch describes the
// rule.
func Implementation() string { return kernel.Current().String() }

// ImplementationReason says why Implementation returns what it does: "the
// default for this CPU", "ELEM_IMPL=avx2", "SetImplementation", or, when
// ELEM_IMPL names an implementation that is unknown or that this CPU lacks,
// the warning that was printed to standard error at start-up.
func ImplementationReason() string { return kernel.Reason() }

// Implementations returns the names of the implementations this CPU and build
// can run, "generic" first.
func Implementations() []string { return kernel.AvailableNames() }

// SetImplementation makes name the implementation that runs every call, or,
// for Auto ("auto"), returns to the automatic choice by size. It returns an
// error, and changes nothing, when name is unknown or this CPU or build
// lacks it. It is meant for tests and benchmarks; every implementation
// gives the same bits.
func SetImplementation(name string) error {
	if strings.EqualFold(strings.TrimSpace(name), Auto) {
		kernel.UseAuto("SetImplementation")
		return nil
	}
	i, ok := kernel.Parse(name)
	if !ok {
		return fmt.Errorf("elem: unknown implementation %q (known: %s)", name, strings.Join(kernel.Names(), ", "))
	}
	if !kernel.Has(i) {
		return fmt.Errorf("elem: implementation %q is not available on this CPU or build (available: %s)",
			name, strings.Join(Implementations(), ", "))
	}
	kernel.Use(i, "SetImplementation")
	return nil
}

// Dispatch describes which implementation runs which calls, from what size
// calls write with streaming stores, and why: the forced implementation or
// the rule for this CPU, the CPU as elem identified it, and its caches. For
// example, on the Xeon elem was tuned on:
//
//	avx512 for calls moving up to 48 KiB (the L1d; div up to 384 bytes) and
//	calls with streaming stores (not div); avx2 for the rest; streaming
//	stores from 2.5 MiB except 6 MiB to 48 MiB; rule for Intel Xeon family
//	6 model 167 (...), measured 2026-11-23; this CPU: Intel family 6 model
//	167, L1d 48 KiB, L2 2 MiB, L3 480 MiB (cpuid)
//
// A call's bytes are its output and its inputs' rows together.
// ELEM_STREAM_MIN=bytes (such as 3145728 or 3M) in the environment makes
// every call from that size on stream.
func Dispatch() string { return kernel.Describe() }

// Caches are the data cache sizes of the CPU elem runs on, in bytes, as
// one core sees them; a level the CPU lacks is 0.
type Caches struct {
	L1d int // the level-1 data cache of one core
	L2  int // the level-2 cache
	L3  int // the whole level-3 cache, which other cores share
	// Source says where the sizes come from: "cpuid" (amd64), "sysfs"
	// (Linux), or "defaults" (32 KiB, 1 MiB, 32 MiB) where neither tells.
	Source string
}

// CacheSizes returns the data cache sizes that elem's automatic dispatch
// and streaming threshold are based on, read once at start-up.
func CacheSizes() Caches {
	cs := cpuinfo.Get().Caches
	return Caches{L1d: cs.L1d, L2: cs.L2, L3: cs.L3, Source: cs.Source}
}
