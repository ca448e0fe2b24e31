using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Handlers.Usings;

public static class OrganizeUsingsHandler
{
    public static Task<OrganizeUsingsPlan> HandleAsync(Solution solution, OrganizeUsingsRequest request, CancellationToken cancellationToken) =>
        throw new NotImplementedException();
}
