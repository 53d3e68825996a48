package kernel

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"unsafe"
)

// Impl is an implementation: the generic Go kernels or one instruction set
// (the constants are in impl_generated.go).
type Impl int32

// String returns the ELEM_IMPL name of i ("avx2").
func (i Impl) String() string { return implNames[i] }

// Names lists every implementation name, of every GOARCH.
func Names() []string { return implNames[:] }

// active is the dispatch in effect. It is atomic only so that tests and
// benchmarks may switch while other goroutines run; kernels read it once a
// call.
var active atomic.Pointer[dispatch]

// dispatch is a choice of implementation by op class, call size and store
// mode: calls of class c with ordinary stores moving at most fastMax[c]
// bytes run fast, and so do calls of class c with streaming stores when
// fastStream[c] is set; every other call runs base. A forced implementation is both, and nothing
// runs fast.
type dispatch struct {
	fast, base Impl
	fastMax    [numClasses]int
	fastStream [numClasses]bool
	forced     bool
	why        string // why this dispatch is in effect, for Reason
}

// AutoName is the ELEM_IMPL and SetImplementation name of the automatic,
// size-aware choice (the default). It names no implementation.
const AutoName = "auto"

func init() {
	env := os.Getenv("ELEM_IMPL")
	i, forced, why, warn := choose(env)
	if forced {
		Use(i, why)
	} else {
		UseAuto(why)
	}
	if warn {
		fmt.Fprintln(os.Stderr, why)
	}
	var streamWarn bool
	streaming, streamWhy, streamWarn = streamThreshold(os.Getenv("ELEM_STREAM_MIN"), autoStream)
	if streamWarn {
		fmt.Fprintln(os.Stderr, streamWhy)
	}
}

// choose returns the implementation ELEM_IMPL forces when this CPU has it,
// or, for no ELEM_IMPL, "auto", and anything unknown or unavailable, the
// automatic choice (forced false, i its base implementation), with the
// reason for the choice and whether that reason is a warning.
func choose(env string) (i Impl, forced bool, why string, warn bool) {
	def := AutoBase()
	switch env = strings.TrimSpace(env); {
	case env == "":
		return def, false, "the default for this CPU", false
	case strings.EqualFold(env, AutoName):
		return def, false, "ELEM_IMPL=" + env, false
	}
	i, ok := Parse(env)
	switch {
	case !ok:
		return def, false, fmt.Sprintf("elem: ELEM_IMPL=%q is not an implementation (known: %s); using %s",
			env, strings.Join(Names(), ", "), def), true
	case !Has(i):
		return def, false, fmt.Sprintf("elem: ELEM_IMPL=%q is not available on this CPU or build (available: %s); using %s",
			env, strings.Join(AvailableNames(), ", "), def), true
	}
	return i, true, "ELEM_IMPL=" + env, false
}

// Parse returns the implementation named name (any case, spaces around).
func Parse(name string) (Impl, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for i, n := range implNames {
		if n == name {
			return Impl(i), true
		}
	}
	return 0, false
}

// Widest returns the widest implementation this CPU and build can run:
// the last of Available, which lists them from the narrowest.
func Widest() Impl {
	a := Available()
	return a[len(a)-1]
}

// Has reports whether this CPU and build can run i.
func Has(i Impl) bool {
	for _, a := range Available() {
		if a == i {
			return true
		}
	}
	return false
}

// AvailableNames lists the names of Available.
func AvailableNames() []string {
	var names []string
	for _, i := range Available() {
		names = append(names, i.String())
	}
	return names
}

// Current returns the implementation in use: the forced one, or in the
// automatic mode the one that runs every call the rule does not give to
// another (Default).
func Current() Impl { return active.Load().base }

// Forced reports whether one implementation runs every call (ELEM_IMPL or
// Use), rather than the automatic choice by size.
func Forced() bool { return active.Load().forced }

// opClass groups the ops by what bounds their speed, for the choice of
// implementation by size.
type opClass uint8

const (
	classMemory  opClass = iota // one cheap instruction per vector: memory traffic
	classCompute                // a divider or square root unit
	classFMA                    // tens of multiply-adds per vector: the math functions, DivScalar on AVX-512
	numClasses
)

// noFast is the fastMax of a dispatch that runs no class fast.
var noFast = [numClasses]int{-1, -1, -1}

// implFor returns the implementation that runs a call of class c that
// reads and writes bytes bytes (its output and every input row), with
// streaming stores or not: a load and a compare or two, against what was
// worked out when the dispatch was chosen.
//
// It, pickFor and kernelKey are generic only so that they inline into the
// entries where those are compiled: in the user's package, which inlines
// the generic functions of elem's internal packages but calls their plain
// ones (see alias.SameOrDisjoint).
func implFor[C ~uint8](c C, bytes int, stream bool) Impl {
	return pickFor(active.Load(), c, bytes, stream)
}

// implAmong is implFor for a call whose kernels exist on some
// implementations only (has: bit i set for Impl i). Where the automatic
// choice lands on one without the kernel it takes the other of its two, if
// that has it: the generic loop would be slower than either. A forced
// implementation stays forced.
func implAmong(c opClass, bytes int, stream bool, has uint32) Impl {
	d := active.Load()
	i := pickFor(d, c, bytes, stream)
	switch {
	case has&(1<<i) != 0 || d.forced:
		return i
	case has&(1<<d.fast) != 0:
		return d.fast
	case has&(1<<d.base) != 0:
		return d.base
	}
	return i
}

// pickFor returns the implementation d gives a call of class c moving bytes
// bytes, with streaming stores or not. A streaming call stands for work
// larger than the caches whatever its own bytes (a piece of a chunked call,
// a row of a broadcast plan): it runs fast only where fastStream says so.
// Deciding by a piece's bytes had run div on Zen 4 with AVX-512 past the
// 4 MiB where AVX2 overtakes it (-tune -check, float64 vv at 2M elements:
// 0.634 ns per element against AVX2's 0.543).
func pickFor[C ~uint8](d *dispatch, c C, bytes int, stream bool) Impl {
	if stream {
		if d.fastStream[c] {
			return d.fast
		}
		return d.base
	}
	if bytes <= d.fastMax[c] {
		return d.fast
	}
	return d.base
}

// Reason says why Current returns what it does.
func Reason() string { return active.Load().why }

// Use makes i, which must be available, run every call, for the reason
// given.
func Use(i Impl, why string) {
	active.Store(&dispatch{fast: i, base: i, fastMax: noFast, forced: true, why: why})
}

// UseAuto makes the rule for this CPU choose the implementation of every
// call by its op class and size, for the reason given.
func UseAuto(why string) {
	d := autoDispatch
	d.why = why
	active.Store(&d)
}

// Setting is the dispatch and streaming policy in effect, as Save found
// them.
type Setting struct {
	d      *dispatch
	stream StreamPolicy
}

// Save returns the setting in effect, for Restore: tests change it and put
// it back.
func Save() Setting { return Setting{active.Load(), streaming} }

// Stream is the streaming policy of s.
func (s Setting) Stream() StreamPolicy { return s.stream }

// Restore puts back a setting that Save returned.
func Restore(s Setting) {
	active.Store(s.d)
	streaming = s.stream
}

// chunkBytes is the most output one assembly call writes: an assembly
// function cannot be preempted, so a bigger block runs as pieces, between
// which the goroutine can stop for the garbage collector. 256 KiB takes
// some 20 to 60 microseconds, and the split costs a call per piece.
const chunkBytes = 256 << 10

// chunkElems is chunkBytes in elements of T.
func chunkElems[T Number]() int { return chunkBytes / int(unsafe.Sizeof(T(0))) }

// StreamFlat reports whether a flat call of n elements of T that streams
// through arrays arrays (its output and its vector inputs) should write
// with non-temporal stores.
func StreamFlat[T Number](n, arrays int) bool {
	return HasStreaming && streams(streaming, n*arrays*int(unsafe.Sizeof(T(0))))
}
