/*
 * floor: the physical floor for one `vault get` on this machine.
 *
 * A fresh process that reads a whole file, runs one AES-256-GCM decryption of
 * it through OpenSSL 3 EVP (tag check included) and writes 32 bytes to stdout.
 * Nothing a vault does on `get` can cost less than this, so benchmarks report
 * `vault get` as a ratio to it, measured in the same run.
 *
 * Carried in the project so `make bench` runs from a plain clone; taken
 * unchanged from the workplace's shared/bench/floor.c (bench/run.sh's
 * FLOOR_SOURCE compiles another floor instead).
 *
 *   cc -O2 floor.c -o floor -lcrypto
 *   ./floor seal FILE SIZE     # writes SIZE random bytes sealed under a fixed key
 *   ./floor FILE               # opens, decrypts, prints the first 32 bytes as hex
 */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char key[32] = {7};

static int seal(const char *path, long size) {
    unsigned char iv[12], tag[16];
    unsigned char *in = malloc(size), *out = malloc(size);
    int len;
    RAND_bytes(iv, sizeof iv);
    RAND_bytes(in, size);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, iv);
    EVP_EncryptUpdate(ctx, out, &len, in, size);
    EVP_EncryptFinal_ex(ctx, out + len, &len);
    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag);
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    fwrite(iv, 1, 12, f);
    fwrite(tag, 1, 16, f);
    fwrite(out, 1, size, f);
    return fclose(f) != 0;
}

static int open_one(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return 1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f) - 28;
    fseek(f, 0, SEEK_SET);
    unsigned char iv[12], tag[16];
    unsigned char *in = malloc(n), *out = malloc(n);
    if (fread(iv, 1, 12, f) != 12 || fread(tag, 1, 16, f) != 16 || fread(in, 1, n, f) != (size_t)n) return 1;
    fclose(f);
    int len;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, iv);
    EVP_DecryptUpdate(ctx, out, &len, in, n);
    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, tag);
    if (EVP_DecryptFinal_ex(ctx, out + len, &len) != 1) return 2;
    for (int i = 0; i < 32 && i < n; i++) printf("%02x", out[i]);
    putchar('\n');
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "seal") == 0) return seal(argv[2], atol(argv[3]));
    if (argc == 2) return open_one(argv[1]);
    fprintf(stderr, "usage: floor seal FILE SIZE | floor FILE\n");
    return 2;
}
