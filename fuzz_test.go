package elem

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// floatsFrom turns fuzz bytes into float32 values, bit pattern by bit
// pattern, so the fuzzer reaches every NaN payload and subnormal.
func floatsFrom(data []byte) []float32 {
	out := make([]float32, len(data)/4)
	for i := range out {
		out[i] = fromBits[float32](uint64(binary.LittleEndian.Uint32(data[4*i:])))
	}
	return out
}

func fuzzSeeds(f *testing.F) {
	f.Add(uint8(0), uint8(0), []byte{})
	f.Add(uint8(4), uint8(3), []byte{0, 0, 0xc0, 0x7f, 1, 0, 0xc0, 0x7f, 0, 0, 0, 0x80, 0, 0, 0, 0})
	f.Add(uint8(5), uint8(1), make([]byte, 4*77))
	f.Add(uint8(3), uint8(15), []byte("a longer seed of arbitrary bytes that fill several vectors and a tail"))
}

// fuzzKernel compares kind k of the implementation in use with the generic
// kernel on fuzzer-chosen bits, op and start offset.
func fuzzKernel(f *testing.F, k kind) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, opByte, offByte uint8, data []byte) {
		op := Op(opByte % uint8(numOps))
		v := floatsFrom(data)
		off := int(offByte%16) % (len(v) + 1)
		v = v[off:]
		half := len(v) / 2
		a, b := v[:half], v[half:half+half]
		n := half
		if k == kindVS {
			b = v[half:min(half+1, len(v))]
		}
		if k == kindSV {
			a, b = v[half:min(half+1, len(v))], v[:half]
		}
		if len(a) == 0 || len(b) == 0 {
			return
		}
		want, got := make([]float32, n), make([]float32, n)
		runGeneric(k, op, 1, n, want, 0, a, 0, b, 0)
		run(k, op, 1, n, got, 0, a, 0, b, 0)
		requireSameBits(t, want, got, fmt.Sprintf("%s %s n=%d", k, op, n))
	})
}

func FuzzVV(f *testing.F) { fuzzKernel(f, kindVV) }
func FuzzVS(f *testing.F) { fuzzKernel(f, kindVS) }
func FuzzSV(f *testing.F) { fuzzKernel(f, kindSV) }
