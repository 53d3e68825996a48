package kernel

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/simdkit/elem/internal/cpuinfo"
)

// StreamPolicy says which calls write with non-temporal stores, where the
// kernels have them (see HasStreaming), by the memory a call streams
// through (its output and every input that is not one repeated row or
// value): those from Min bytes on (math.MaxInt: none), except those in
// [Gap[0], Gap[1]). Past the caches an output's lines would only be
// evicted again, after the read for ownership that a streaming store
// avoids; below it they may be read again from cache; in the gap, where a
// CPU has one, the last-level cache holds a call better than memory takes
// its streaming stores. Where these lie differs from CPU to CPU: the rule
// for this CPU sets them from its cache sizes (see rules), and
// ELEM_STREAM_MIN overrides them.
type StreamPolicy struct {
	Min int
	Gap [2]int
}

// Streams reports whether p streams a call that streams through bytes
// bytes.
func (p StreamPolicy) Streams(bytes int) bool { return streams(p, bytes) }

// streams is Streams, generic so that StreamFlat inlines it in the user's
// package, as FenceAfter is (see implFor).
func streams[B ~int](p StreamPolicy, bytes B) bool {
	return int(bytes) >= p.Min && (int(bytes) < p.Gap[0] || int(bytes) >= p.Gap[1])
}

// String describes p: "from 2.5 MiB except 6 MiB to 48 MiB", "from 3 MiB
// up to 8 MiB", "never".
func (p StreamPolicy) String() string {
	switch {
	case p.Min == math.MaxInt:
		return "never"
	case p.Gap[1] <= p.Gap[0]:
		return "from " + cpuinfo.Bytes(p.Min)
	case p.Gap[1] == math.MaxInt:
		return "from " + cpuinfo.Bytes(p.Min) + " up to " + cpuinfo.Bytes(p.Gap[0])
	}
	return "from " + cpuinfo.Bytes(p.Min) + " except " + cpuinfo.Bytes(p.Gap[0]) + " to " + cpuinfo.Bytes(p.Gap[1])
}

// streaming is the policy in effect.
var streaming StreamPolicy

// streamWhy says where streaming comes from.
var streamWhy string

// ruleStreamWhy is streamWhy when the rule for this CPU sets the threshold.
const ruleStreamWhy = "the rule for this CPU"

// streamThreshold returns the policy that ELEM_STREAM_MIN (env) sets, a
// single threshold, or for none the rule's (auto), with the reason and
// whether that reason is a warning (env is not a size in bytes).
func streamThreshold(env string, auto StreamPolicy) (p StreamPolicy, why string, warn bool) {
	env = strings.TrimSpace(env)
	if env == "" {
		return auto, ruleStreamWhy, false
	}
	n, ok := parseBytes(env)
	if !ok {
		return auto, fmt.Sprintf("elem: ELEM_STREAM_MIN=%q is not a size in bytes (such as 3145728 or 3M); using the rule's (%s)", env, auto), true
	}
	return StreamPolicy{Min: n}, "ELEM_STREAM_MIN=" + env, false
}

// parseBytes reads a non-negative size: decimal bytes, or with a binary
// K, M or G suffix ("3M" is 3 << 20).
func parseBytes(s string) (int, bool) {
	shift := 0
	if i := len(s) - 1; i > 0 {
		switch s[i] {
		case 'K', 'k':
			shift = 10
		case 'M', 'm':
			shift = 20
		case 'G', 'g':
			shift = 30
		}
		if shift > 0 {
			s = s[:i]
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > int64(^uint(0)>>1)>>shift {
		return 0, false
	}
	return int(n << shift), true
}

// StreamMinBytes returns the streaming threshold in effect: the fewest
// bytes a call that streams moves.
func StreamMinBytes() int { return streaming.Min }

// SetStreamMinBytes makes every call from n bytes on stream, with no gap,
// and returns the previous threshold; tests lower it to 0 to reach the
// streaming kernels, and benchmarks choose a store mode with 0 and
// math.MaxInt (Save and Restore keep the whole policy).
func SetStreamMinBytes(n int) int {
	prev := streaming.Min
	streaming = StreamPolicy{Min: n}
	return prev
}

// Streaming reports whether an m x n call of kind k on T, whose dst rows
// start ldd elements apart, should write with non-temporal stores (its
// traffic calls for them, and its rows may take them: StreamBlock);
// callers that split one call into parts decide once, for the whole.
func Streaming[T Number](k Kind, m, n, ldd, lda, ldb int) bool {
	size := int(unsafe.Sizeof(T(0)))
	return HasStreaming && StreamBlock(m, n, ldd, size) && streaming.Streams(m*n*arrays(k, m, lda, ldb)*size)
}

// ShouldStream reports whether work that streams through the given number of
// bytes (its output and every input that is not one repeated row or value)
// should write with non-temporal stores. A caller that runs one piece of
// work as many kernel calls (a broadcast plan, a parallel split) decides
// once, for the whole, and passes the answer to every call.
func ShouldStream(bytes int) bool { return HasStreaming && streaming.Streams(bytes) }

// ShouldStreamTranspose is ShouldStream for a transposed copy
// (TransposeStream), whose squares write dst a line in each of many rows:
// it streams from the threshold on, the gaps of the policy aside, which
// were measured on elementwise calls. Zen 5 (AMD EPYC family 26 model 2,
// streaming from 2 MiB except 8 to 11.3 MiB), CopyView of an n x n matrix
// transposed, ns per byte of dst, 2 runs, without and with streaming:
// float32 n = 512 0.048-0.049 / 0.033-0.039, 1024 0.058 / 0.043-0.051,
// 2048 0.104 / 0.092; float64 n = 1024 0.055-0.058 / 0.045-0.052, 1448
// 0.059-0.078 / 0.041-0.045; no gain below the L2's size (float32 362:
// 0.033 / 0.034).
func ShouldStreamTranspose(bytes int) bool { return HasStreaming && bytes >= streaming.Min }

// Fence orders the non-temporal stores of every earlier streaming call
// before any later store. The streaming kernels leave their stores
// unordered, so that work of many calls (a broadcast plan, a fused
// expression's blocks, a chunked call) waits for them once: whoever passes
// stream = true to an entry runs Fence after its last such call, before the
// result can reach another goroutine (returning to the caller, or a worker
// signalling that its part is done). A goroutine changes threads only
// through the scheduler's locked instructions, which x86 orders with every
// earlier store, so the calls of one piece of work need not fence between
// them.
func Fence() {
	if HasStreaming {
		storeFence()
	}
}

// FenceAfter runs Fence when stream is set: the closing line of a call that
// may have streamed.
func FenceAfter[B ~bool](stream B) {
	if stream {
		Fence()
	}
}

// arrays counts the arrays an m-row call of kind k streams through: dst, and
// each input that has a row per row (a leading stride of 0 repeats one row).
func arrays(k Kind, m, lda, ldb int) int {
	n := 1
	if k != SV && (m == 1 || lda != 0) {
		n++
	}
	if k != VS && (m == 1 || ldb != 0) {
		n++
	}
	return n
}

// StreamBlock reports whether an m x n block of elements of elemSize
// bytes, whose rows start ldd elements apart, may be written with
// streaming stores: one row, long rows (2 KiB), or rows of whole cache
// lines one after another. A row that ends inside a line leaves the
// streaming stores parts of lines, which the CPU writes far slower than
// whole ones. Intel Xeon (family 6 model 207), 8M float32 in rows of n, x +
// c with a column c, ms per run streaming against not (thread CPU time,
// best of 15): n = 3 25.4 / 9.1, 7 11.4 / 6.3, 17 81.8 / 6.3, 33 48.7 /
// 6.9, 100 25.0 / 6.9, 250 16.4 / 6.9, 500 10.0 / 7.0, 1000 7.4 / 6.8;
// rows of whole lines (n = 16, 32, 64, 128, 512) 0.83-1.21 times as long
// as without.
func StreamBlock(m, n, ldd, elemSize int) bool {
	rowBytes := n * elemSize
	return m <= 1 || rowBytes >= streamRowBytes || ldd == n && rowBytes%lineBytes == 0
}

// lineBytes is the size of a cache line, and streamRowBytes the shortest
// row StreamBlock lets stream wherever it starts.
const (
	lineBytes      = 64
	streamRowBytes = 2 << 10
)
