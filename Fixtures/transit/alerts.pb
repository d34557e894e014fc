

2.0ðÀ¼‡`
a1*Z
€±ï†€˜ô•**12018R@
>
8Capitol Hill Bay 2 has moved 20 m north for constructionen