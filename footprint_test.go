package elem

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFootprint builds small programs that call one elem function each on
// float32 and counts the bytes of elem's code they link (go tool nm -size):
// a program links the kernels of the element types it uses only, because
// the generated switches fold to one type at compile time. When the type
// lookup did not fold, a program calling only Add on float32 linked 105,585
// bytes of elem (every type's Add kernels) and one calling only Apply
// 497,050; with the fold, about 30,000 and 95,000.
func TestFootprint(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("builds programs with the go command: linux/amd64, not -short")
	}
	gotool := goTool(t)
	otherTypes := regexp.MustCompile(`internal/kernel\.[a-z]+[A-Z]+(F64|I8|I16|I32|I64|U8|U16|U32|U64)(AVX2|AVX512)`)
	for _, tt := range []struct {
		call  string
		limit int // bytes of elem code, about 1.3x what the call links now
	}{
		{"elem.Add(a, a, a)", 40_000},
		// Apply reaches every binary op's kernels, the long programs of
		// Hypot, Atan2 and Pow too (201 KB with them, math ops having no
		// non-temporal twins; 97 KB before them).
		{"elem.Apply(elem.OpAdd, a, a, a)", 260_000},
	} {
		t.Run(tt.call, func(t *testing.T) {
			prog := buildConsumer(t, gotool, "a := make([]float32, 100)\n\t"+tt.call+"\n\tfmt.Println(a[0])")
			nm := exec.Command(gotool, "tool", "nm", "-size", prog)
			out, err := nm.Output()
			require.NoError(t, err)
			bytesOfElem := 0
			var foreign []string
			lines := bufio.NewScanner(bytes.NewReader(out))
			for lines.Scan() {
				f := strings.Fields(lines.Text()) // address size type name
				if len(f) < 4 || !strings.HasPrefix(f[3], "github.com/simdkit/elem") {
					continue
				}
				size, err := strconv.Atoi(f[1])
				require.NoError(t, err)
				bytesOfElem += size
				if otherTypes.MatchString(f[3]) {
					foreign = append(foreign, f[3])
				}
			}
			t.Logf("%s links %d bytes of elem", tt.call, bytesOfElem)
			require.Empty(t, foreign, "kernels of types the program does not use")
			require.LessOrEqual(t, bytesOfElem, tt.limit)
		})
	}
}

// goTool returns the go command for the tests that build programs, and
// skips where they cannot run.
func goTool(t *testing.T) string {
	t.Helper()
	if testing.Short() || runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("builds programs with the go command: linux/amd64, not -short")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	return gotool
}

// buildConsumer builds a program of its own module whose main runs body
// (with fmt, elem and imports imported) and returns the executable's path:
// elem's generic calls are compiled in the caller's package, so what a
// user's program gets shows only in such a build.
func buildConsumer(t *testing.T, gotool, body string, imports ...string) string {
	t.Helper()
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("go.mod", "module consumer\n\ngo 1.26.0\n\nrequire github.com/simdkit/elem v0.0.0\n\nreplace github.com/simdkit/elem => "+root+"\n")
	write("go.sum", string(sum))
	imported := ""
	for _, p := range append([]string{"fmt", "github.com/simdkit/elem"}, imports...) {
		imported += "\t\"" + p + "\"\n"
	}
	write("main.go", "package main\n\nimport (\n"+imported+")\n\nfunc main() {\n\t"+body+"\n}\n")
	build := exec.Command(gotool, "build", "-mod=mod", "-o", "prog", ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=", "GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return filepath.Join(dir, "prog")
}

// TestSmallPathsCallNothing disassembles, in a program of its own module,
// the float32 instances of calls of every family, and the generic
// functions of elem and the kernel entries they call, and checks that they
// call no plain function of elem's internal packages or of math: only
// generic functions, the kernels, the fence of a streaming call, the
// float32 FMA routine and the runtime. A generic call of elem is compiled
// in the user's package, and there the compiler inlines only functions of
// the packages it imports itself: the helpers of the checks and of the
// dispatch (alias.SameOrDisjoint, implFor, kernelKey, the streaming
// decision) inlined in elem's own tests, but were calls with every live
// register spilled around them in the user's program (elem.Add of 4
// float32, -pgo=off: 12.9-14.8 ns there, 6.4-7.8 ns with them inlined,
// the plain loop 5.1-6.2), and
// math.Sqrt in the short loop was a call per element, not SQRTSS.
func TestSmallPathsCallNothing(t *testing.T) {
	gotool := goTool(t)
	prog := buildConsumer(t, gotool, `a, m := make([]float32, 100), make([]bool, 100)
	elem.Add(a, a, a)
	elem.AddScalar(a, a, 1)
	elem.Neg(a, a)
	elem.Abs(a, a)
	elem.Sqrt(a, a)
	elem.Floor(a, a)
	elem.Lt(m, a, a)
	elem.LtScalar(m, a, 1)
	elem.FMA(a, a, a, a)
	elem.Clamp(a, a, 0, 1)
	elem.Select(a, m, a, a)
	w := make([]float64, 100)
	elem.Convert(w, a)
	fmt.Println(elem.Sum(a), elem.Dot(a, a), elem.MaxOf(a), m[0], w[0])`)
	follow := regexp.MustCompile(`^github\.com/simdkit/elem(/internal/kernel\.[A-Z]|\.)[A-Za-z]*\[go\.shape\.`)
	plain := regexp.MustCompile(`^(math\.|github\.com/simdkit/elem/internal/[^\[]*$)`)
	allowed := map[string]bool{"github.com/simdkit/elem/internal/kernel.Fence": true, "github.com/simdkit/elem/internal/kernel.fma32": true,
		// calls in every amd64 build below GOAMD64=v2 (no ROUNDSD)
		"math.Floor": true, "math.Ceil": true, "math.Trunc": true, "math.Round": true, "math.RoundToEven": true}
	queue := []string{}
	for _, call := range []string{"Add", "AddScalar", "Neg", "Abs", "Sqrt", "Floor", "Lt", "LtScalar", "FMA", "Clamp", "Select", "Sum", "Dot", "MaxOf"} {
		queue = append(queue, "github.com/simdkit/elem."+call+"[go.shape.float32]")
	}
	queue = append(queue, "github.com/simdkit/elem.Convert[go.shape.float64,go.shape.float32]")
	seen := map[string]bool{}
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		if seen[fn] {
			continue
		}
		seen[fn] = true
		out, err := exec.Command(gotool, "tool", "objdump", "-s", "^"+regexp.QuoteMeta(fn)+"$", prog).Output()
		require.NoError(t, err)
		require.Contains(t, string(out), "TEXT", "%s is not in the program", fn)
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 || f[len(f)-2] != "CALL" {
				continue
			}
			target := strings.TrimSuffix(f[len(f)-1], "(SB)")
			switch {
			case strings.HasSuffix(target, ".abi0") || allowed[target]:
			case plain.MatchString(target):
				t.Errorf("%s calls %s, which does not inline in the user's package", fn, target)
			case strings.Contains(target, ".misuse"): // the path of a panic
			case follow.MatchString(target):
				queue = append(queue, target)
			}
		}
	}
}

// TestSmallPathsSameBitsInCallersPackage runs, in a program of its own
// module (where elem's short loops are compiled, and where the compiler
// might order an operation's operands otherwise than in elem's tests), the
// named calls on every short length and offset of slices made of NaNs with
// payloads, signed zeros, infinities and a subnormal, each scalar one of
// those too, and compares every result's bits with those of the kernels
// on a long slice of the same values.
func TestSmallPathsSameBitsInCallersPackage(t *testing.T) {
	gotool := goTool(t)
	prog := buildConsumer(t, gotool, `sp := []float32{math.Float32frombits(0x7fc00005), math.Float32frombits(0x7f800011), math.Float32frombits(0xffc00022),
		0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), 1, -1.5, 1e-45, 3.25}
	const long = 64
	mk := func(shift int) []float32 {
		v := make([]float32, long)
		for i := range v {
			v[i] = sp[(i*(shift+1)+shift)%len(sp)]
		}
		return v
	}
	a, b, c := mk(0), mk(1), mk(2)
	cond := make([]bool, long)
	for i := range cond {
		cond[i] = i%3 == 1
	}
	bad := 0
	check := func(name string, s float32, run func(d, a, b, c []float32, cond []bool, s float32)) {
		want := make([]float32, long)
		run(want, a, b, c, cond, s)
		for n := 1; n <= 8; n++ {
			for off := 0; off+n <= long; off += 5 {
				got := make([]float32, n)
				run(got, a[off:off+n], b[off:off+n], c[off:off+n], cond[off:off+n], s)
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(want[off+i]) {
						bad++
						fmt.Printf("%s s=%#x n=%d: element %d is %#x, the kernels give %#x\n", name, math.Float32bits(s), n, i, math.Float32bits(got[i]), math.Float32bits(want[off+i]))
					}
				}
			}
		}
	}
	for _, s := range sp {
		check("Add", s, func(d, a, b, c []float32, m []bool, s float32) { elem.Add(d, a, b) })
		check("AddScalar", s, func(d, a, b, c []float32, m []bool, s float32) { elem.AddScalar(d, a, s) })
		check("ScalarSub", s, func(d, a, b, c []float32, m []bool, s float32) { elem.ScalarSub(d, s, a) })
		check("Mul", s, func(d, a, b, c []float32, m []bool, s float32) { elem.Mul(d, a, b) })
		check("MulScalar", s, func(d, a, b, c []float32, m []bool, s float32) { elem.MulScalar(d, a, s) })
		check("Div", s, func(d, a, b, c []float32, m []bool, s float32) { elem.Div(d, a, b) })
		check("Min", s, func(d, a, b, c []float32, m []bool, s float32) { elem.Min(d, a, b) })
		check("MaxScalar", s, func(d, a, b, c []float32, m []bool, s float32) { elem.MaxScalar(d, a, s) })
		check("Neg", s, func(d, a, b, c []float32, m []bool, s float32) { elem.Neg(d, a) })
		check("Abs", s, func(d, a, b, c []float32, m []bool, s float32) { elem.Abs(d, a) })
		check("Sqrt", s, func(d, a, b, c []float32, m []bool, s float32) { elem.Sqrt(d, a) })
		check("Round", s, func(d, a, b, c []float32, m []bool, s float32) { elem.Round(d, a) })
		check("FMA", s, func(d, a, b, c []float32, m []bool, s float32) { elem.FMA(d, a, b, c) })
		check("MulScalarAdd", s, func(d, a, b, c []float32, m []bool, s float32) { elem.MulScalarAdd(d, a, s, c) })
		check("Clamp", s, func(d, a, b, c []float32, m []bool, s float32) { elem.Clamp(d, a, s, 2) })
		check("SelectScalar", s, func(d, a, b, c []float32, m []bool, s float32) { elem.SelectScalar(d, m, a, s) })
	}
	if bad > 0 {
		os.Exit(1)
	}`, "math", "os")
	out, err := exec.Command(prog).CombinedOutput()
	require.NoError(t, err, "%s", out)
}
