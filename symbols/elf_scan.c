/* The hot loops of reading an ELF file, for symbols/elf_scan.py: its
 * section headers and the entries of a symbol table, each with its name.
 * Python then makes objects only of the symbols kept (a GPU code object's
 * table is three quarters local labels), decodes their names in one call,
 * and the loops run without the interpreter lock, beside other readers.
 * Every offset is checked; the file is never trusted.  Same rules as
 * symbols/elf.py's ElfFile.sections and ElfFile.symbol_rows. */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* One kept entry; its layout is SYMBOL_RECORD in elf_scan.py. */
struct kept_symbol {
    uint64_t value;
    uint64_t size;
    uint8_t info;
    uint8_t other;
    uint16_t shndx;
    uint32_t padding;
};

/* One section header; its layout is SECTION_RECORD in elf_scan.py. */
struct section_record {
    uint32_t type;
    uint32_t link;
    uint64_t flags;
    uint64_t addr;
    uint64_t offset;
    uint64_t size;
    uint32_t info;
    uint32_t padding;
    uint64_t entsize;
};

static uint16_t read16(const uint8_t *p, int little) {
    return little ? (uint16_t)(p[0] | p[1] << 8) : (uint16_t)(p[1] | p[0] << 8);
}

static uint32_t read32(const uint8_t *p, int little) {
    uint32_t value = 0;
    for (int i = 0; i < 4; i++) value |= (uint32_t)p[little ? i : 3 - i] << (8 * i);
    return value;
}

static uint64_t read64(const uint8_t *p, int little) {
    uint64_t value = 0;
    for (int i = 0; i < 8; i++) value |= (uint64_t)p[little ? i : 7 - i] << (8 * i);
    return value;
}

static uint64_t read_word(const uint8_t *p, int is64, int little) {
    return is64 ? read64(p, little) : read32(p, little);
}

/* Where kept names go: each one's bytes and a NUL, while they fit. */
struct names {
    const uint8_t *table;
    uint64_t table_size;
    uint8_t *out;
    uint64_t capacity;
    uint64_t used; /* counted on past `capacity`: the room needed */
};

/* Where the NUL-terminated string at `offset` of the table starts, and
 * its length (to the table's end without a NUL; "" past the end). */
static const uint8_t *name_at(const struct names *names, uint32_t offset, uint64_t *length) {
    *length = 0;
    if (offset >= names->table_size) return names->table;
    const uint8_t *start = names->table + offset;
    const uint8_t *end = memchr(start, 0, names->table_size - offset);
    *length = (uint64_t)((end ? end : names->table + names->table_size) - start);
    return start;
}

/* Appends `length` bytes at `start` and a NUL, while they fit. */
static void put_name(struct names *names, const uint8_t *start, uint64_t length) {
    if (names->used + length + 1 <= names->capacity) {
        memcpy(names->out + names->used, start, length);
        names->out[names->used + length] = 0;
    }
    names->used += length + 1;
}

/* Appends the name at `offset` of the table. */
static void take_name(struct names *names, uint32_t offset) {
    uint64_t length;
    const uint8_t *start = name_at(names, offset, &length);
    put_name(names, start, length);
}

/* Local labels (NOTYPE LOCAL), section and file symbols: left out unless
 * every entry is asked for. */
static int left_out(uint8_t info) {
    uint8_t kind = info & 0xF;
    return info == 0 || kind == 3 || kind == 4;
}

/* Scans entries [first, first + count) of `entries` (a table less its null
 * entry), 64-bit or 32-bit, little- or big-endian, naming into `strings`.
 * Writes the kept ones to `out` (room for `count`), their names to
 * `names` (`names_capacity` bytes), each followed by a NUL, and how many
 * bytes those take to `*names_size` (those past `names_capacity` are not
 * written).  Returns how many were kept, or -1 when the range lies outside
 * `entries`. */
long gpusym_scan_symbols(const uint8_t *entries, uint64_t entries_size, int is64, int little,
                         const uint8_t *strings, uint64_t strings_size, int every, uint64_t first,
                         uint64_t count, struct kept_symbol *out, uint8_t *names_out, uint64_t names_capacity,
                         uint64_t *names_size) {
    const uint64_t entry_size = is64 ? 24 : 16;
    if (first > entries_size / entry_size || count > entries_size / entry_size - first) return -1;
    struct names names = {strings, strings_size, names_out, names_capacity, 0};
    long kept = 0;
    for (uint64_t i = first; i < first + count; i++) {
        const uint8_t *entry = entries + i * entry_size;
        struct kept_symbol symbol = {0};
        uint32_t name = read32(entry, little);
        if (is64) {
            symbol.info = entry[4];
            symbol.other = entry[5];
            symbol.shndx = read16(entry + 6, little);
            symbol.value = read64(entry + 8, little);
            symbol.size = read64(entry + 16, little);
        } else {
            symbol.value = read32(entry + 4, little);
            symbol.size = read32(entry + 8, little);
            symbol.info = entry[12];
            symbol.other = entry[13];
            symbol.shndx = read16(entry + 14, little);
        }
        if (!every && left_out(symbol.info)) continue;
        take_name(&names, name);
        out[kept++] = symbol;
    }
    *names_size = names.used;
    return kept;
}

/* The `count` section headers of `headers`, 64-bit or 32-bit, little- or
 * big-endian, naming into `strings`: every one, or with `filter` those
 * whose names start with the `prefix_size` bytes of `prefix` and those
 * whose type is under 32 and a bit of `types` (bit 2: SHT_SYMTAB...).  Writes the kept ones to `out`, their
 * indices to `indices`, their names to `names` as gpusym_scan_symbols
 * writes them, and the length of every header's name (NULs left out) to
 * `*all_names`.  Returns how many were kept, or -1 when `headers` is too
 * short. */
long gpusym_scan_sections(const uint8_t *headers, uint64_t headers_size, uint64_t count, int is64, int little,
                          const uint8_t *strings, uint64_t strings_size, int filter, const uint8_t *prefix,
                          uint64_t prefix_size, uint32_t types, struct section_record *out, uint32_t *indices,
                          uint64_t *all_names, uint8_t *names_out, uint64_t names_capacity, uint64_t *names_size) {
    const uint64_t header_size = is64 ? 64 : 40;
    if (count > headers_size / header_size) return -1;
    struct names names = {strings, strings_size, names_out, names_capacity, 0};
    long kept = 0;
    *all_names = 0;
    for (uint64_t i = 0; i < count; i++) {
        const uint8_t *header = headers + i * header_size;
        uint64_t length;
        const uint8_t *name = name_at(&names, read32(header, little), &length);
        uint32_t type = read32(header + 4, little);
        *all_names += length;
        int typed = type < 32 && (types >> type & 1);
        if (filter && !typed && (length < prefix_size || memcmp(name, prefix, prefix_size) != 0)) continue;
        put_name(&names, name, length);
        struct section_record *section = &out[kept];
        indices[kept++] = (uint32_t)i;
        /* Addresses, offsets and sizes are words: 8 bytes in a 64-bit file, 4 in a 32-bit one. */
        const uint64_t w = is64 ? 8 : 4;
        section->type = type;
        section->flags = read_word(header + 8, is64, little);
        section->addr = read_word(header + 8 + w, is64, little);
        section->offset = read_word(header + 8 + 2 * w, is64, little);
        section->size = read_word(header + 8 + 3 * w, is64, little);
        section->link = read32(header + 8 + 4 * w, little);
        section->info = read32(header + 12 + 4 * w, little);
        section->entsize = read_word(header + 16 + 5 * w, is64, little); /* after sh_addralign */
        section->padding = 0;
    }
    *names_size = names.used;
    return kept;
}
