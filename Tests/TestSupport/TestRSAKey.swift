import Foundation

/// A fixed 2048-bit RSA key used only by tests (generating RSA keys is slow). Never use it for anything else.
enum TestRSAKey {
    /// The PKCS#8 PEM of the private key.
    static let pem = """
        -----BEGIN PRIVATE KEY-----
        MIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQChOoxMTpefoK45
        hK5nm8Eth+GUKhbeEkROYcPBL48WagQQc9TZYP27hqwB6P2+/C+3DcXfFoIBtVk8
        /h/H5002W/9Rlg5o881apSLDo8xwcZfZzJkOJxHT9YscnWcJQsPE8SF59eS0ytOD
        hknPgGr2maXczqMQ8IQSV1Zh4CEMoUTZYS7P6b9E/ecT1/atzhzbmrQz77XFbJqT
        nR8XUNbId6SFBTo4EJf0Ht4db7y2ORQICVy3oAJLc4WCqRnotF3nMRSx1mDDqg0G
        BRyfCb5c5Dq56y7TvqXDHViOt4VX/NawntqpG1JDhGhkSTzsP6tTWJPuaTGOssXS
        VGdJxG1XAgMBAAECggEACQXBPy3wvz6bMV3S8rpdI6KkhYmbcP79spM3BLMYI014
        f8EzqpyKZnmhW5QByzPKqchMB/F3Agh3f3nLJoEzqXSZg6PNl6L5HXb7TI54jNxW
        fpo8AHZAQafOiqHmV7bURMunr28KxvFIx+X2cHXDxpwPk50+s955zZr0mxKTVuUC
        retdzQNXn2Y+TqAGqMRdHNC8DpeOxGMrywkUCs5cBwMPSeQGtnh4rJPWVlPph/04
        FCJEZaOF3q6BZhG1pKTmY3WpKkYH6q3VBtszrXS5pGxZJIv1JTfneTvNyB073Zfv
        why4HKU9UlnAX3y7eaASICaFCwINIrFY7+gBAhP4RQKBgQDZrP8hBV1RFv5P6ndK
        qqKlbjlTN8EVacQttD+Ta6S6C2fL/ruWl9HBi6Gy/X5ZiwSgdjmLLWmHFPRCRI2F
        u3OfT39xuhhPAGsNevRMxHmNMUE+Esh83wDFT2UqkaK8p/FjCA6sF0/JjjAtT4Ya
        l6T4DbRxw7/f4aZOqpQ+1loFAwKBgQC9nWPIlzLvMUDpOTMSN6jXAlB18BksCUul
        OTXAunouKcXeh/Dg18KmK91lm4ugHPKfhTkl5w40a0bAiFW+haePoBoEapanFw+x
        WfqK6beWsAR2FNKnQ5R4eMuwNeYxOovdDnnmOpZhwJjUswgZ9tJZoWLa06VvXB01
        fQ2cEpn0HQKBgDqX16Ei2YifYNtQKMY/gkJ3lhSxeFb0PmtzDn33RsMRmOIPcp1J
        xpuLo34TwDQIOLmcuUaedb53xHwmCdZKrAfhFVQenLZ/TVG2nBYh+PopnP9BfRgn
        ywRRp9C6nQydRFu86n4mVELT9GHt+xIjabOftMe+wmJYUjTws7DqcBbTAoGALchi
        33wigD6UPbvh6PQngEK+yrs+WLOl4C8AG5jrB1puvFx2fNOb3CObQX1dKTvUGVBB
        jDVN6Lo+Sx6gFXCQFM3Dem2CErYuw9PF+uSTv36glSJR+rEGmFASXmmlOx23x5hH
        Np/Oz6uBO1o/CoXeJGYjSFLyDwFezBt1vcmAAsECgYBpRlPRXTOTjP4jpCK3s9XI
        oDFuboO6k1uejVTvoXEuR50QgeiKyJ5QutTOOi4X3HGfLKl5FIa9VbMe/NFop9es
        rF/cRnctEgnWwEtM/ZcihABPeZ7KOETx2oRalEB5Pea8YC1fu4bgWg68CYmYEWPe
        Y/poiPNNQ0pbhei9MYBI0A==
        -----END PRIVATE KEY-----
        """
}
