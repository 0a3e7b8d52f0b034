package kernel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
)

// KernelName is the name of the kernelspec, DisplayName what front ends
// show.
const (
	KernelName  = "portlab"
	DisplayName = "Go (portlab)"
)

// KernelSpec is the content of kernel.json.
type KernelSpec struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env"`
	Metadata      map[string]any    `json:"metadata"`
}

// NewKernelSpec returns the kernelspec that runs `binary kernel
// {connection_file}`; binary should be an absolute path.
func NewKernelSpec(binary string) KernelSpec {
	return KernelSpec{
		Argv:          []string{binary, "kernel", "{connection_file}"},
		DisplayName:   DisplayName,
		Language:      "go",
		InterruptMode: "message",
		Env:           map[string]string{},
		Metadata:      map[string]any{"debugger": false},
	}
}

// WriteKernelSpec writes spec into dir/kernels/portlab (dir is a Jupyter
// data directory such as ~/.local/share/jupyter or PREFIX/share/jupyter)
// with the logos, and returns the folder it wrote.
func WriteKernelSpec(dir string, spec KernelSpec) (string, error) {
	folder := filepath.Join(dir, "kernels", KernelName)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return "", err
	}
	data, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return "", err
	}
	files := map[string][]byte{
		"kernel.json":    append(data, '\n'),
		"logo-32x32.png": logoPNG(32),
		"logo-64x64.png": logoPNG(64),
		"logo-svg.svg":   []byte(logoSVG),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(folder, name), content, 0o644); err != nil {
			return "", fmt.Errorf("write kernelspec: %w", err)
		}
	}
	return folder, nil
}

// logoSVG is the kernel's logo: four ports with bars of port pressure.
const logoSVG = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
<rect width="64" height="64" rx="10" fill="#00add8"/>
<rect x="8" y="30" width="9" height="26" fill="#ffffff"/>
<rect x="21" y="14" width="9" height="42" fill="#ffffff"/>
<rect x="34" y="14" width="9" height="42" fill="#ffffff"/>
<rect x="47" y="38" width="9" height="18" fill="#ffffff"/>
<rect x="6" y="11" width="52" height="2" fill="#ce3262"/>
</svg>
`

// logoPNG draws the logo at size × size pixels.
func logoPNG(size int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	blue := color.NRGBA{0x00, 0xad, 0xd8, 0xff}
	white := color.NRGBA{0xff, 0xff, 0xff, 0xff}
	red := color.NRGBA{0xce, 0x32, 0x62, 0xff}
	scale := float64(size) / 64
	rect := func(x, y, w, h float64, c color.Color) {
		for py := int(y * scale); py < int((y+h)*scale); py++ {
			for px := int(x * scale); px < int((x+w)*scale); px++ {
				img.Set(px, py, c)
			}
		}
	}
	rect(0, 0, 64, 64, blue)
	rect(8, 30, 9, 26, white)
	rect(21, 14, 9, 42, white)
	rect(34, 14, 9, 42, white)
	rect(47, 38, 9, 18, white)
	rect(6, 11, 52, 2, red)
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}
