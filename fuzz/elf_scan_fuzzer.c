/* libFuzzer target for symbols/elf_scan.c, built with AddressSanitizer and
 * UndefinedBehaviorSanitizer (tests/symbols/test_elf_scan.py builds and runs it; run
 * it longer by hand with -max_total_time=N).  The first 8 bytes of an input
 * choose the class, byte order, `every`, where the symbol table and string
 * table split, the range scanned, the room for names, and the prefix and
 * type section headers are filtered by (its first 0 to 3 bytes, from the
 * string table's start); the rest are the tables.  Each table is copied to a buffer of its exact size, so that a
 * read past its end is reported. */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

long gpusym_scan_symbols(const uint8_t *entries, uint64_t entries_size, int is64, int little,
                         const uint8_t *strings, uint64_t strings_size, int every, uint64_t first,
                         uint64_t count, void *out, uint8_t *names_out, uint64_t names_capacity,
                         uint64_t *names_size);
long gpusym_scan_sections(const uint8_t *headers, uint64_t headers_size, uint64_t count, int is64, int little,
                          const uint8_t *strings, uint64_t strings_size, int filter, const uint8_t *prefix,
                          uint64_t prefix_size, uint32_t types, void *out, uint32_t *indices,
                          uint64_t *all_names, uint8_t *names_out, uint64_t names_capacity, uint64_t *names_size);

enum { SYMBOL_RECORD = 24, SECTION_RECORD = 56 };

static uint8_t *copy(const uint8_t *data, size_t size) {
    uint8_t *buffer = malloc(size ? size : 1);
    memcpy(buffer, data, size);
    return buffer;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 8) return 0;
    int is64 = data[0] & 1, little = (data[0] >> 1) & 1, every = (data[0] >> 2) & 1;
    size_t split = (size_t)data[1] * (size - 8) / 255;
    uint64_t capacity = (uint64_t)data[4] * 7;
    uint8_t *table = copy(data + 8, split), *strings = copy(data + 8 + split, size - 8 - split);
    uint8_t *names = malloc(capacity ? capacity : 1);
    uint64_t used = 0, entries = split / (is64 ? 24 : 16), headers = split / (is64 ? 64 : 40);
    uint64_t first = data[2] < entries ? data[2] : entries;
    uint64_t count = (uint64_t)data[3] * 4 < entries - first ? (uint64_t)data[3] * 4 : entries - first;

    void *out = malloc(SYMBOL_RECORD * (count + 1));
    gpusym_scan_symbols(table, split, is64, little, strings, size - 8 - split, every, first, count, out, names,
                        capacity, &used);
    free(out);
    out = malloc(SECTION_RECORD * (headers + 1));
    uint32_t *indices = malloc(sizeof(uint32_t) * (headers + 1));
    uint64_t all_names = 0, strings_size = size - 8 - split;
    int filter = data[5] & 1;
    uint64_t prefix_size = (data[5] >> 1) % 4 < strings_size ? (data[5] >> 1) % 4 : strings_size;
    uint8_t *prefix = copy(strings, prefix_size);
    gpusym_scan_sections(table, split, headers, is64, little, strings, strings_size, filter, prefix, prefix_size,
                         (uint32_t)data[6] << (data[7] % 25), out, indices, &all_names, names, capacity, &used);
    free(prefix);
    free(indices);
    free(out);
    free(names);
    free(strings);
    free(table);
    return 0;
}
