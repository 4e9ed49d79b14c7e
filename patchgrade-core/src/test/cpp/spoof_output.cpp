// Prints exactly the bytes a test asks for, to make a report or a console line read as something else.
// argv[1] picks the outputs: "gold" prints argv[2] and argv[3] on stdout and stderr, "cand" prints argv[4]
// and argv[5], "env" prints the candidate's where SPOOF is set in the environment and the gold's elsewhere.
// Each is decoded from \xNN escapes (and \n, \\), so NUL and any other byte can be asked for on a command line.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

static std::string decode(const char* s) {
    std::string out;
    for (; *s; ++s) {
        if (*s != '\\' || !s[1]) { out += *s; continue; }
        ++s;
        if (*s == 'n') out += '\n';
        else if (*s == 'x' && s[1] && s[2]) { out += (char) std::strtol(std::string(s + 1, 2).c_str(), nullptr, 16); s += 2; }
        else out += *s;
    }
    return out;
}

int main(int argc, char** argv) {
    if (argc < 6) return 2;
    bool cand = std::strcmp(argv[1], "cand") == 0 || (std::strcmp(argv[1], "env") == 0 && std::getenv("SPOOF"));
    std::string out = decode(argv[cand ? 4 : 2]);
    std::string err = decode(argv[cand ? 5 : 3]);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fwrite(err.data(), 1, err.size(), stderr);
    return 0;
}
