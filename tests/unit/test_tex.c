/* Texture and surface objects: the addressing and filtering functions (CUDA C++ Programming
 * Guide, appendix "Texture Fetching"; values computed by hand below), the workload's
 * textures:/surfaces: (errors at file:line:col, counted by hand from the YAML text), the
 * handle a parameter receives, and the parser's refusals of the unsupported forms. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "warpsweep/tex.h"
#include "warpsweep/workload.h"
#include "tmpdir.h"

/* ---- addressing (Guide: clamp, border; wrap and mirror of a footprint's neighbours) ---- */

static void test_address_index(void **s)
{
    (void)s;
    /* n = 4: clamp to [0, 3] */
    assert_int_equal(ws_tex_address_index(-1, 4, WS_TEX_CLAMP), 0);
    assert_int_equal(ws_tex_address_index(2, 4, WS_TEX_CLAMP), 2);
    assert_int_equal(ws_tex_address_index(4, 4, WS_TEX_CLAMP), 3);
    /* border: outside reads zero (-1) */
    assert_int_equal(ws_tex_address_index(-1, 4, WS_TEX_BORDER), -1);
    assert_int_equal(ws_tex_address_index(4, 4, WS_TEX_BORDER), -1);
    assert_int_equal(ws_tex_address_index(3, 4, WS_TEX_BORDER), 3);
    /* wrap: modulo 4 (-1 -> 3, 5 -> 1) */
    assert_int_equal(ws_tex_address_index(-1, 4, WS_TEX_WRAP), 3);
    assert_int_equal(ws_tex_address_index(5, 4, WS_TEX_WRAP), 1);
    /* mirror: 0 1 2 3 | 3 2 1 0 | 0 1 ...: 4 -> 3, 7 -> 0, 8 -> 0, -1 -> 0, -2 -> 1 */
    assert_int_equal(ws_tex_address_index(4, 4, WS_TEX_MIRROR), 3);
    assert_int_equal(ws_tex_address_index(7, 4, WS_TEX_MIRROR), 0);
    assert_int_equal(ws_tex_address_index(8, 4, WS_TEX_MIRROR), 0);
    assert_int_equal(ws_tex_address_index(-1, 4, WS_TEX_MIRROR), 0);
    assert_int_equal(ws_tex_address_index(-2, 4, WS_TEX_MIRROR), 1);
}

static void test_coord(void **s)
{
    (void)s;
    /* unnormalized: unchanged */
    assert_true(ws_tex_coord(-2.75f, 4, 0, WS_TEX_CLAMP) == -2.75f);
    /* normalized clamp: scaled by N only (the index clamps later) */
    assert_true(ws_tex_coord(1.25f, 4, 1, WS_TEX_CLAMP) == 5.0f);
    /* wrap: frac(1.25) = 0.25 -> 1.0; frac(-0.25) = 0.75 -> 3.0 */
    assert_true(ws_tex_coord(1.25f, 4, 1, WS_TEX_WRAP) == 1.0f);
    assert_true(ws_tex_coord(-0.25f, 4, 1, WS_TEX_WRAP) == 3.0f);
    /* mirror: floor(1.25) = 1 odd -> 1 - 0.25 = 0.75 -> 3.0; floor(2.25) = 2 even -> 0.25 -> 1.0;
     * floor(-0.25) = -1 odd -> 1 - 0.75 = 0.25 -> 1.0 */
    assert_true(ws_tex_coord(1.25f, 4, 1, WS_TEX_MIRROR) == 3.0f);
    assert_true(ws_tex_coord(2.25f, 4, 1, WS_TEX_MIRROR) == 1.0f);
    assert_true(ws_tex_coord(-0.25f, 4, 1, WS_TEX_MIRROR) == 1.0f);
}

static void test_linear_weights(void **s)
{
    (void)s;
    uint32_t a;
    /* x = 1.0: x_B = 0.5, i = 0, alpha = 0.5 = 128/256 (the Guide's example) */
    assert_int_equal(ws_tex_linear_split(1.0f, &a), 0);
    assert_int_equal(a, 128);
    /* x = 0.5: x_B = 0, alpha 0 */
    assert_int_equal(ws_tex_linear_split(0.5f, &a), 0);
    assert_int_equal(a, 0);
    /* x = 0.25: x_B = -0.25, i = -1, alpha = 0.75 = 192/256 */
    assert_int_equal(ws_tex_linear_split(0.25f, &a), -1);
    assert_int_equal(a, 192);
    /* 8 fractional bits: x_B = 2 + 0.3 -> 0.3 * 256 = 76.8 -> 77 (rounded up) */
    assert_int_equal(ws_tex_linear_split(2.8f, &a), 2);
    assert_int_equal(a, 77);
    /* x_B = 1 + 0.1 -> 25.6 -> 26; x_B = 1 + 0.098 -> 25.088 -> 25 */
    assert_int_equal(ws_tex_linear_split(1.6f, &a), 1);
    assert_int_equal(a, 26);
    assert_int_equal(ws_tex_linear_split(1.598f, &a), 1);
    assert_int_equal(a, 25);
    /* frac just below 1: 0.999 * 256 = 255.74 -> 256 = 1.0 exactly, the 9th bit (the Guide:
     * "so 1.0 is exactly represented"); the footprint stays at i = 3 */
    assert_int_equal(ws_tex_linear_split(4.499f, &a), 3);
    assert_int_equal(a, 256);
}

/* ---- workload textures: errors and the parameter's handle ---- */

static const char *KPTX =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(\n\t.param .u64 k_param_0,\n\t.param .u32 k_param_1\n)\n{\n\tret;\n}\n";

static int setup(void **state)
{
    (void)state;
    tmpdir_make("ws_tex");
    write_file("k.ptx", KPTX);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tmpdir_remove();
    return 0;
}

static ws_workload *load(const char *text, ws_error *err)
{
    write_file("w.yaml", text);
    char path[256];
    snprintf(path, sizeof path, "%s/w.yaml", dir);
    return ws_workload_load(path, err);
}

static void expect_error(const char *text, const char *pos, const char *needle)
{
    ws_error err = {{0}};
    ws_workload *wl = load(text, &err);
    char prefix[300];
    snprintf(prefix, sizeof prefix, "%s/w.yaml:%s: ", dir, pos);
    if (wl || strncmp(err.msg, prefix, strlen(prefix)) != 0 || !strstr(err.msg, needle) || strchr(err.msg, '\n'))
        fail_msg("expected error '%s...%s', got '%s' (%s)", prefix, needle, err.msg, wl ? "loaded" : "refused");
    ws_workload_free(wl);
}

#define HEAD "kernel: k.ptx\ngrid: 1\nblock: 32\nbuffers:\n  b: {type: f32, count: 64}\n"
/* lines 1-5 above; textures: on line 6, the texture on line 7 */

static void test_texture_errors(void **s)
{
    (void)s;
    expect_error(HEAD "textures:\n  t: {buffer: c, type: f32, width: 8}\nparams: [t, 1]\n", "7:15",
                 "missing buffer 'c'");
    expect_error(HEAD "textures:\n  t: {buffer: b, type: f64, width: 8}\nparams: [t, 1]\n", "7:24",
                 "type (of one channel) must be one of u8, s8, u16, s16, u32, s32, f16, f32");
    expect_error(HEAD "textures:\n  t: {buffer: b, type: f32}\nparams: [t, 1]\n", "7:6",
                 "missing required key 'width'");
    /* 8 x 9 f32 texels = 288 bytes > 256 */
    expect_error(HEAD "textures:\n  t: {buffer: b, type: f32, width: 8, height: 9}\nparams: [t, 1]\n", "7:15",
                 "need 288 bytes, buffer 'b' holds 256");
    expect_error(HEAD "textures:\n  t: {buffer: b, type: f32, width: 8, address: wrap}\nparams: [t, 1]\n", "7:48",
                 "wrap needs normalized_coords: true");
    expect_error(HEAD "textures:\n  t: {buffer: b, type: f32, width: 4, height: 4, address: [clamp]}\nparams: [t, 1]\n",
                 "7:59", "has 1 modes for a 2D texture");
    expect_error(HEAD "textures:\n  t: {buffer: b, type: s32, width: 8, filter: linear}\nparams: [t, 1]\n", "7:47",
                 "linear filtering needs a texture that returns floats");
    expect_error(HEAD "textures:\n  t: {buffer: b, type: s32, width: 8, read_mode: normalized_float}\nparams: [t, 1]\n",
                 "7:50", "normalized_float applies to 8- and 16-bit integer channels");
    expect_error(HEAD "textures:\n  t: {buffer: b, type: f32, width: 4, pitch: 8}\nparams: [t, 1]\n", "7:46",
                 "is less than a row of 4 texels of 4 bytes");
    expect_error(HEAD "textures:\n  t: {buffer: b, type: f32, width: 4, channels: 3}\nparams: [t, 1]\n", "7:49",
                 "must be 1, 2 or 4");
    expect_error(HEAD "textures:\n  t: {buffer: b, type: f32, width: 4, depth: 2}\nparams: [t, 1]\n", "7:39",
                 "depth without height");
    expect_error(HEAD "textures:\n  b: {buffer: b, type: f32, width: 4}\nparams: [b, 1]\n", "7:3", "duplicate name 'b'");
    /* a surface has no sampler */
    expect_error(HEAD "surfaces:\n  s: {buffer: b, type: f32, width: 4, filter: linear}\nparams: [s, 1]\n", "7:39",
                 "unknown key 'filter' in surface 's'");
    /* the object goes to a 64-bit integer .param: k_param_1 is .u32 */
    expect_error(HEAD "textures:\n  t: {buffer: b, type: f32, width: 4}\nparams: [1, t]\n", "8:13",
                 "texture 't' passed to .param k_param_1 of 4 bytes");
}

static void test_texture_handle(void **s)
{
    (void)s;
    ws_error err = {{0}};
    ws_workload *wl = load(HEAD "  c: {type: u8, count: 128}\n"
                                "textures:\n  t: {buffer: b, type: f32, channels: 2, width: 4, height: 2, pitch: 32, "
                                "normalized_coords: true, address: [wrap, mirror], filter: linear}\n"
                                "surfaces:\n  s: {buffer: c, type: u8, channels: 4, width: 4, height: 4, depth: 2}\n"
                                "params: [s, 1]\n", &err);
    if (!wl) fail_msg("%s", err.msg);
    assert_int_equal(wl->ntexs, 2);
    const ws_texobj *t = &wl->texs[0].desc, *su = &wl->texs[1].desc;
    assert_int_equal(t->dims, 2);
    assert_int_equal(t->texel_bytes, 8);
    assert_int_equal(t->pitch, 32);
    assert_int_equal(t->address[0], WS_TEX_WRAP);
    assert_int_equal(t->address[1], WS_TEX_MIRROR);
    assert_int_equal(t->filter, WS_TEX_LINEAR);
    assert_int_equal(su->surface, 1);
    assert_int_equal(su->dims, 3);
    assert_int_equal(su->pitch, 16);   /* 4 texels of 4 bytes */
    ws_memimage m;
    assert_int_equal(ws_memimage_init(&m, wl, 1, &err), 0);
    uint64_t h;
    memcpy(&h, ws_memimage_params(&m, 0), 8);
    assert_int_equal(h, WS_TEXOBJ_HANDLE(1));   /* the surface is the second object */
    assert_int_equal(m.gmem.ntex, 2);
    assert_ptr_equal(m.gmem.tex[1].region, ws_memimage_buffer(&m, 1));
    ws_memimage_free(&m);
    ws_workload_free(wl);
}

/* ---- the parser's refusals ---- */

static void refused_ptx(const char *line, int col, const char *needle)
{
    char text[1024];
    snprintf(text, sizeof text,
             ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
             "  .reg .b64 %%rd<2>;\n  .reg .f32 %%f<8>;\n  .reg .b32 %%r<8>;\n%s\n  ret;\n}\n", line);
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_parse(text, "e.ptx", NULL, &err);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "e.ptx:9:%d: ", col);
    if (k || strncmp(err.msg, prefix, strlen(prefix)) != 0 || !strstr(err.msg, needle))
        fail_msg("expected '%s...%s', got '%s'", prefix, needle, err.msg);
    ws_kernel_free(k);
}

static void test_parse_refusals(void **s)
{
    (void)s;
    refused_ptx("  tex.base.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5}], %f6;", 6, "mipmapped forms");
    /* tex.level takes one level of detail, tex.grad two gradient vectors of the geometry's size */
    refused_ptx("  tex.level.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5}];", 67, "before the level of detail");
    refused_ptx("  tex.grad.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5}], {%f6}, {%f7, %f6};", 68,
                "takes 2 elements as a gradient");
    refused_ptx("  tex.a2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%r1, %f4, %f5, %f6}];", 6, "layered, cube");
    refused_ptx("  tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4}];", 50, "takes 2 elements as the coordinates");
    refused_ptx("  tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%r1, {%f4, %f5}];", 44, "must be a 64-bit register");
    refused_ptx("  txq.channel_data_type.b32 %r0, [%rd1];", 6, "not publicly documented");
    refused_ptx("  sust.p.2d.b32.trap [%rd1, {%r1, %r2}], {%r3};", 7, "formatted surface access");
    refused_ptx("  tld4.r.3d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5, %f6, %f7}];", 3,
                "tld4.{r,g,b,a}.2d.v4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_address_index),
        cmocka_unit_test(test_coord),
        cmocka_unit_test(test_linear_weights),
        cmocka_unit_test(test_texture_errors),
        cmocka_unit_test(test_texture_handle),
        cmocka_unit_test(test_parse_refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
