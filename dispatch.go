package elem

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"unsafe"
)

// level is an implementation: the generic Go kernels or one instruction set.
type level int32

const (
	levelGeneric level = iota
	levelAVX2
	levelAVX512
	levelNEON
	numLevels
)

var levelNames = [numLevels]string{"generic", "avx2", "avx512", "neon"}

func (l level) String() string { return levelNames[l] }

// current is the implementation in use. It is atomic only so that tests and
// benchmarks may switch while other goroutines run; kernels read it once a call.
var current atomic.Int32

func init() {
	current.Store(int32(chooseLevel(os.Getenv("ELEM_IMPL"))))
}

// chooseLevel returns the level ELEM_IMPL asks for when this CPU has it, and
// otherwise the default level of this CPU.
func chooseLevel(env string) level {
	if l, ok := parseLevel(env); ok && hasLevel(l) {
		return l
	}
	return defaultLevel()
}

func parseLevel(name string) (level, bool) {
	for l, n := range levelNames {
		if n == strings.ToLower(strings.TrimSpace(name)) {
			return level(l), true
		}
	}
	return 0, false
}

func hasLevel(l level) bool {
	for _, a := range availableLevels() {
		if a == l {
			return true
		}
	}
	return false
}

// Implementation returns the name of the implementation in use: "generic",
// "avx2", "avx512" or "neon".
func Implementation() string { return level(current.Load()).String() }

// Implementations returns the names of the implementations this CPU and build
// can run, "generic" first.
func Implementations() []string {
	var names []string
	for _, l := range availableLevels() {
		names = append(names, l.String())
	}
	return names
}

// SetImplementation makes name the implementation in use. It returns an error,
// and changes nothing, when name is unknown or this CPU or build lacks it. It
// is meant for tests and benchmarks; every implementation gives the same bits.
func SetImplementation(name string) error {
	l, ok := parseLevel(name)
	if !ok {
		return fmt.Errorf("elem: unknown implementation %q (known: %s)", name, strings.Join(levelNames[:], ", "))
	}
	if !hasLevel(l) {
		return fmt.Errorf("elem: implementation %q is not available on this CPU or build (available: %s)",
			name, strings.Join(Implementations(), ", "))
	}
	current.Store(int32(l))
	return nil
}

// streamMinBytes is the memory a kernel call streams through (its output
// and every input that is not one repeated row or value) from which it
// writes with non-temporal stores, where the kernels have them (see
// hasStreaming). Beyond the last-level cache an output's lines would only be
// evicted again, after the read for ownership that a streaming store avoids;
// below it they may be read again from cache. Measured with BenchmarkStream
// on a 32 MiB-L3 Zen 3 (float32, ns/elem, ordinary vs streaming): Add at 1M
// elements (12 MiB) 0.188 vs 0.202, at 2M (24 MiB) 0.342 vs 0.254;
// AddScalar at 2M (16 MiB) 0.189 vs 0.187, at 4M 0.247 vs 0.195. Tests lower
// it to reach the streaming kernels.
var streamMinBytes = 16 << 20

// streaming reports whether an m x n call of kind k on T should write with
// non-temporal stores; callers that split one call into parts decide once,
// for the whole.
func streaming[T Float](k kind, m, n, lda, ldb int) bool {
	return hasStreaming && m*n*streams(k, m, lda, ldb) >= streamMinBytes/int(unsafe.Sizeof(T(0)))
}

// streams counts the arrays an m-row call of kind k streams through: dst, and
// each input that has a row per row (a leading stride of 0 repeats one row).
func streams(k kind, m, lda, ldb int) int {
	n := 1
	if k != kindSV && (m == 1 || lda != 0) {
		n++
	}
	if k != kindVS && (m == 1 || ldb != 0) {
		n++
	}
	return n
}

// is32 reports whether T is float32-based; it is a constant for each
// instantiation, so the branches on it vanish.
func is32[T Float]() bool { return unsafe.Sizeof(T(0)) == 4 }
