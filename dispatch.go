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

// streamMinBytes is the output size from which a kernel call writes with
// non-temporal stores (where the kernels have them, see hasStreaming): far
// beyond the last-level cache, the output's lines would only be evicted
// again, after the read for ownership that a streaming store avoids.
// Measured with BenchmarkStream; tests lower it to reach those kernels.
var streamMinBytes = 16 << 20

// is32 reports whether T is float32-based; it is a constant for each
// instantiation, so the branches on it vanish.
func is32[T Float]() bool { return unsafe.Sizeof(T(0)) == 4 }

// ptr32 and ptr64 give the assembly the first element of s. An empty slice
// gives its (possibly nil) data pointer, which a kernel with no work never reads.
func ptr32[T Float](s []T) *float32 { return (*float32)(unsafe.Pointer(unsafe.SliceData(s))) }
func ptr64[T Float](s []T) *float64 { return (*float64)(unsafe.Pointer(unsafe.SliceData(s))) }
