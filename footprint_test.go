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
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	otherTypes := regexp.MustCompile(`internal/kernel\.[a-z]+[A-Z]+(F64|I8|I16|I32|I64|U8|U16|U32|U64)(AVX2|AVX512)`)
	for _, tt := range []struct {
		call  string
		limit int // bytes of elem code, about 1.3x what the call links now
	}{
		{"elem.Add(a, a, a)", 40_000},
		{"elem.Apply(elem.OpAdd, a, a, a)", 125_000},
	} {
		t.Run(tt.call, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name, text string) {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
			}
			write("go.mod", "module footprint\n\ngo 1.26.0\n\nrequire github.com/simdkit/elem v0.0.0\n\nreplace github.com/simdkit/elem => "+root+"\n")
			write("go.sum", string(sum))
			write("main.go", "package main\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/simdkit/elem\"\n)\n\nfunc main() {\n\ta := make([]float32, 100)\n\t"+tt.call+"\n\tfmt.Println(a[0])\n}\n")
			build := exec.Command(gotool, "build", "-mod=mod", "-o", "prog", ".")
			build.Dir = dir
			build.Env = append(os.Environ(), "GOFLAGS=", "GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=0")
			out, err := build.CombinedOutput()
			require.NoError(t, err, "%s", out)
			nm := exec.Command(gotool, "tool", "nm", "-size", filepath.Join(dir, "prog"))
			out, err = nm.Output()
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
